// switchboard test [PATH…] — conversation tests from YAML scenario files (src/scenarios/).
import { count } from '../format/words.js';
import { Command, InvalidArgumentError } from 'commander';
import { nonEmpty, positiveInt, positiveIntUpTo } from './input.js';
import { paint } from './output.js';
import { action, EXIT, globalsOf, outputFor, setExitCode, UsageError, withApi, writeErr } from './runtime.js';
import { TEST_FORMATS, type TestFormat } from '../scenarios/report.js';
import type { ScenarioFile } from '../scenarios/scenario.js';
import type { ScenarioResult } from '../scenarios/run.js';
import { io } from './io.js';

interface TestOptions {
  schema?: boolean;
  out?: string;
  grep?: string;
  repeat?: number;
  samples?: number;
  passRate?: number;
  maxCost?: number;
  baseline?: string;
  tolerance: number;
  failOnRegression?: boolean;
  cleanup?: boolean;
  concurrency: number;
  bail?: boolean;
  updateSnapshots?: boolean;
}

function regex(value: string): RegExp {
  try {
    return new RegExp(value, 'i');
  } catch (err) {
    throw new InvalidArgumentError(`It is not a valid regular expression: ${(err as Error).message}.`);
  }
}

/** A share from 0 to 1, or a percentage ("80%"). */
function fraction(value: string): number {
  const pctForm = /^\s*([\d.]+)\s*%\s*$/.exec(value);
  const n = pctForm ? Number(pctForm[1]) / 100 : Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError('It must be a number from 0 to 1, or a percentage like 80%.');
  return n;
}

function amount(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError('It must be an amount of zero or more, as the service reports cost (like 0.50).');
  return n;
}

/** test from-call <id>: a regression test from a real call. */
function fromCallCommand(): Command {
  return new Command('from-call')
    .description("write a scenario file from a call in the archive: the caller's lines as turns, each reply a snapshot (or --judge: a rubric)")
    .argument('<id>', 'the call: its id or a short id (syncs the archive first, unless --offline)', nonEmpty)
    .option('--out <file>', 'the scenario file to write (*.test.yaml); default: a new file under ./tests named after the call')
    .option('--judge', "judge the whole conversation against a rubric drawn from the call's summary and analysis, instead of snapshots")
    .option('--offline', 'read only the archive (no sync, no connection)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard test from-call 0a62f3\n' +
        '  $ switchboard test from-call call_123 --judge --out tests/refund.test.yaml\n  $ switchboard test tests',
    )
    .action(
      action('make a test from the call', async (id: string, o: { out?: string; judge?: boolean; offline?: boolean }, c: Command) => {
        const [{ withArchive }, { callForTest, writeTestFromCall }, { DEFAULT_TEST_DIR }, { escapeLine, jsonText }] = await Promise.all([
          import('./archive.js'),
          import('./test-from-call.js'),
          import('../scenarios/files.js'),
          import('../format/escape.js'),
        ]);
        await withArchive(c, o.offline === true, async ({ archive, api, out }) => {
          const call = await callForTest(archive, api, id);
          // `test` has an --out of its own (the report's file), which commander gives the parent wherever it stands.
          const file = o.out ?? c.parent?.opts<{ out?: string }>().out;
          const { path } = await writeTestFromCall(call, { judge: o.judge, out: file, dir: DEFAULT_TEST_DIR });
          if (out.format === 'json') out.write(jsonText({ path, call: call.id }) + '\n');
          else if (out.format === 'ids') out.write(`${escapeLine(path)}\n`);
          else out.write(`wrote ${escapeLine(path)} from call ${escapeLine(call.id)}; run it: switchboard test ${escapeLine(path)}\n`);
        });
      }),
    );
}

export function testCommand(): Command {
  return new Command('test')
    .description('run conversation tests: YAML scenario files (*.test.yaml) against an assistant, each in a new chat session')
    .argument('[paths...]', 'scenario files or directories to search for *.test.yaml / *.test.yml (default: ./tests)')
    .option('--grep <regex>', 'run only the scenarios whose name matches (case-insensitive)')
    .option('--samples <n>', 'run each scenario n times; with --pass-rate, it passes when that share of its samples pass', positiveIntUpTo(1000))
    .option('--pass-rate <p>', 'the share of samples that must pass, 0..1 or a percentage (default: all; a mixed result is flaky)', fraction)
    .option('--repeat <n>', 'the same as --samples', positiveIntUpTo(1000))
    .option('--baseline <report.json>', 'compare with an earlier -o json report and list regressions (pass rate, judge scores, latency)')
    .option('--tolerance <x>', 'how far a mean judge score may drop below the baseline before it is a regression', fraction, 0.1)
    .option('--fail-on-regression', 'exit 1 when --baseline finds a regression')
    .option('--max-cost <amount>', "stop starting chats once the run's chats cost this much (as the service reports cost)", amount)
    .option('--cleanup', 'list the caller and judge assistants switchboard test created on the target, and remove them where the service can')
    .option('--concurrency <n>', 'scenarios run at once', positiveInt, 4)
    .option('--bail', 'stop starting scenarios after the first failure')
    .option('--update-snapshots', "store each turn's reply beside the file (<name>.snap.yaml) for `expect: { snapshot: true }`")
    .option('--out <file>', 'write the report (-o text|json|junit|tap) to this file; the text report still goes to stdout')
    .option('--schema', 'print the JSON Schema of scenario files and exit')
    .addCommand(fromCallCommand())
    .addHelpText(
      'after',
      [
        '',
        'Output: -o text (default), json, junit, tap or github. Exit codes: 0 all passed, 1 a scenario failed or was',
        'flaky (or --fail-on-regression found one), 2 an invalid file or usage (nothing is sent), 4 the API key was refused.',
        '',
        'Examples:',
        '  $ switchboard test                                  every *.test.yaml under ./tests',
        '  $ switchboard test tests/returns.test.yaml --grep "return window"',
        '  $ switchboard test -o junit --out results.xml       for CI',
        '  $ switchboard test --samples 10 --pass-rate 0.8     measure a flaky scenario',
        '  $ switchboard test -o json --out base.json && switchboard test --baseline base.json --fail-on-regression',
        '  $ switchboard test --update-snapshots',
        '  $ switchboard test --schema > scenario.schema.json',
      ].join('\n'),
    )
    .action(
      action('run the tests', async (paths: string[], o: TestOptions, c: Command) => {
        const globals = globalsOf(c);
        const format = (globals.output as string | undefined) ?? 'text';
        if (!(TEST_FORMATS as readonly string[]).includes(format)) throw new UsageError(`-o ${format}: switchboard test writes ${TEST_FORMATS.join(', ')}.`);
        const { scenarioJsonSchema, parseScenarioFile } = await import('../scenarios/scenario.js');
        if (o.schema) {
          if (paths.length) throw new UsageError('--schema takes no paths.');
          const { jsonText } = await import('../format/escape.js');
          io().stdout.write(jsonText(scenarioJsonSchema(), 2) + '\n');
          return;
        }
        if (o.cleanup) {
          if (paths.length) throw new UsageError('--cleanup takes no paths.');
          await withApi(c, async ({ api, out }) => {
            const { isHelperName } = await import('../scenarios/evals.js');
            const { escapeLine } = await import('../format/escape.js');
            const helpers = (await api.listAssistants()).filter((a) => isHelperName(a.name));
            if (helpers.length === 0) {
              out.write('no caller or judge assistants of switchboard test on this target\n');
              return;
            }
            for (const a of helpers) out.write(`${escapeLine(a.id)}  ${escapeLine(a.name ?? '')}\n`);
            // The API has no DELETE /assistants: say so rather than pretend.
            writeErr(
              `switchboard: the service's API cannot delete assistants (it has no DELETE /assistants); ` +
                `remove these ${helpers.length} in its dashboard. They are reused by later runs meanwhile.`,
            );
          });
          return;
        }
        if (o.samples !== undefined && o.repeat !== undefined && o.samples !== o.repeat)
          throw new UsageError(`--samples ${o.samples} and --repeat ${o.repeat}: they are the same option; give one.`);
        const samples = o.samples ?? o.repeat ?? 1;
        const grep = o.grep === undefined ? undefined : regex(o.grep);
        const { writeFileSync } = await import('node:fs');
        const { readHandedFile } = await import('../config/files.js');
        const { findScenarioFiles, readScenarioFile, DEFAULT_TEST_DIR } = await import('../scenarios/files.js');
        const files = findScenarioFiles(paths.length ? paths : [DEFAULT_TEST_DIR]);
        if (files.length === 0)
          throw new UsageError(`no scenario files (*.test.yaml, *.test.yml) under ${(paths.length ? paths : [DEFAULT_TEST_DIR]).join(', ')}.`);
        // Every file is checked before anything is sent; each bad one is named with line and column.
        const parsed: ScenarioFile[] = [];
        let bad = 0;
        for (const f of files) {
          try {
            parsed.push(parseScenarioFile(f.path, readScenarioFile(f)));
          } catch (err) {
            bad++;
            writeErr(`switchboard: ${(err as Error).message}`);
          }
        }
        if (bad) {
          setExitCode(EXIT.usage);
          return;
        }
        const { runScenarios, reportPassed, selectScenarios, planOf } = await import('../scenarios/run.js');
        const order = selectScenarios(parsed, grep);
        // A bad baseline is found before anything is sent.
        const { parseBaseline, compareWithBaseline, estimateCost } = await import('../scenarios/baseline.js');
        const baseline = o.baseline === undefined ? undefined : parseBaseline(o.baseline, readHandedFile(o.baseline, 'a JSON report'));
        if (o.failOnRegression && !baseline) throw new UsageError('--fail-on-regression needs --baseline <report.json>.');
        if (order.length === 0) throw new UsageError(`no scenario name matches --grep ${o.grep} (in ${files.length} file${files.length === 1 ? '' : 's'}).`);
        // Where the report goes is checked before anything is sent: found only at the end, a run would be lost.
        if (o.out) await writableOut(o.out);
        const { renderReport, scenarioText, summaryText } = await import('../scenarios/report.js');
        const out = outputFor(globals);
        const colored = (tone: 'green' | 'red' | 'yellow' | 'dim', s: string) => paint(out.color, tone, s);
        // The text report goes out as scenarios finish, in file order, so a long run shows progress.
        const streaming = format === 'text' || o.out !== undefined;
        const done = new Map<object, ScenarioResult>();
        let printed = 0;
        const onResult = (r: ScenarioResult) => {
          done.set(r.scenario, r);
          for (; printed < order.length && done.has(order[printed]); printed++) out.write(scenarioText(done.get(order[printed])!, colored, o.passRate));
        };
        const report = await withApi(c, ({ api, target }) => {
          if (target.kind !== 'sandbox') {
            const plan = planOf(order, samples);
            const estimate = baseline && estimateCost(baseline, order, samples);
            writeErr(
              `switchboard test: ${count(order.length, 'scenario')} × ${count(samples, 'sample')}: ` +
                `${count(plan.sessions, 'chat session')}, up to ${count(plan.chats, 'chat')} on ${target.profile}; ` +
                (estimate === undefined
                  ? 'the cost is as the service reports it per chat (--baseline gives an estimate)'
                  : `about ${estimate} by the baseline's cost per sample`) +
                (o.maxCost === undefined ? '' : `; --max-cost ${o.maxCost} stops the run`),
            );
          }
          return runScenarios(api, parsed, {
            grep,
            repeat: samples,
            passRate: o.passRate,
            maxCost: o.maxCost,
            concurrency: o.concurrency,
            bail: o.bail,
            updateSnapshots: o.updateSnapshots,
            ...(streaming ? { onResult } : {}),
          });
        });
        if (baseline) report.baseline = { file: o.baseline!, regressions: compareWithBaseline(report, baseline, o.tolerance) };
        if (streaming) {
          // Scenarios --bail left unrun are reported after the run.
          for (const r of report.results.slice(printed)) out.write(scenarioText(r, colored, o.passRate));
          out.write(summaryText(report, colored));
        }
        if (o.out) writeFileSync(o.out, renderReport(report, format as TestFormat));
        else if (!streaming) out.write(renderReport(report, format as TestFormat, colored));
        const regressed = o.failOnRegression && (report.baseline?.regressions.length ?? 0) > 0;
        setExitCode(reportPassed(report) && !regressed ? EXIT.ok : EXIT.failed);
      }),
    );
}

/** A report file that can be written: its directory exists and takes files, and it is no directory itself. */
async function writableOut(path: string): Promise<void> {
  const { accessSync, constants, statSync } = await import('node:fs');
  const { dirname, resolve } = await import('node:path');
  const why = (() => {
    try {
      if (statSync(path).isDirectory()) return 'it is a directory';
    } catch {
      // Not there yet: its directory must take it.
    }
    try {
      if (!statSync(dirname(resolve(path))).isDirectory()) return 'its directory is not a directory';
      accessSync(dirname(resolve(path)), constants.W_OK);
      return undefined;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? 'its directory does not exist' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    }
  })();
  if (!why) return;
  const { escapeLine } = await import('../format/escape.js');
  throw new UsageError(`--out ${escapeLine(path)}: cannot write the report (${escapeLine(why)})`);
}
