// switchboard test [PATH…] — conversation tests from YAML scenario files (src/scenarios/).
import { Command, InvalidArgumentError } from 'commander';
import { positiveInt, positiveIntUpTo } from './input.js';
import { paint } from './output.js';
import { action, EXIT, globalsOf, outputFor, setExitCode, UsageError, withApi, writeErr } from './runtime.js';
import { TEST_FORMATS, type TestFormat } from '../scenarios/report.js';
import type { ScenarioFile } from '../scenarios/scenario.js';
import type { ScenarioResult } from '../scenarios/run.js';

interface TestOptions {
  schema?: boolean;
  out?: string;
  grep?: string;
  repeat: number;
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

export function testCommand(): Command {
  return new Command('test')
    .description('run conversation tests: YAML scenario files (*.test.yaml) against an assistant, each in a new chat session')
    .argument('[paths...]', 'scenario files or directories to search for *.test.yaml / *.test.yml (default: ./tests)')
    .option('--grep <regex>', 'run only the scenarios whose name matches (case-insensitive)')
    .option('--repeat <n>', 'run each scenario n times; one that passes only sometimes is reported as flaky', positiveIntUpTo(1000), 1)
    .option('--concurrency <n>', 'scenarios run at once', positiveInt, 4)
    .option('--bail', 'stop starting scenarios after the first failure')
    .option('--update-snapshots', "store each turn's reply beside the file (<name>.snap.yaml) for `expect: { snapshot: true }`")
    .option('--out <file>', 'write the report (-o text|json|junit|tap) to this file; the text report still goes to stdout')
    .option('--schema', 'print the JSON Schema of scenario files and exit')
    .addHelpText(
      'after',
      [
        '',
        'Output: -o text (default), json, junit or tap. Exit codes: 0 all passed, 1 a scenario failed or was',
        'flaky, 2 an invalid file or usage (nothing is sent), 4 the API key was refused.',
        '',
        'Examples:',
        '  $ switchboard test                                  every *.test.yaml under ./tests',
        '  $ switchboard test tests/returns.test.yaml --grep "return window"',
        '  $ switchboard test -o junit --out results.xml       for CI',
        '  $ switchboard test --repeat 10                       find flaky scenarios',
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
          process.stdout.write(jsonText(scenarioJsonSchema(), 2) + '\n');
          return;
        }
        const grep = o.grep === undefined ? undefined : regex(o.grep);
        const { writeFileSync } = await import('node:fs');
        const { readSmallTextFile } = await import('../config/files.js');
        const { findScenarioFiles, DEFAULT_TEST_DIR } = await import('../scenarios/files.js');
        const files = findScenarioFiles(paths.length ? paths : [DEFAULT_TEST_DIR]);
        if (files.length === 0)
          throw new UsageError(`no scenario files (*.test.yaml, *.test.yml) under ${(paths.length ? paths : [DEFAULT_TEST_DIR]).join(', ')}.`);
        // Every file is checked before anything is sent; each bad one is named with line and column.
        const parsed: ScenarioFile[] = [];
        let bad = 0;
        for (const f of files) {
          try {
            parsed.push(parseScenarioFile(f, readSmallTextFile(f, 'a scenario file')));
          } catch (err) {
            bad++;
            writeErr(`switchboard: ${(err as Error).message}`);
          }
        }
        if (bad) {
          setExitCode(EXIT.usage);
          return;
        }
        const { runScenarios, reportPassed, selectScenarios } = await import('../scenarios/run.js');
        const order = selectScenarios(parsed, grep);
        if (order.length === 0) throw new UsageError(`no scenario name matches --grep ${o.grep} (in ${files.length} file${files.length === 1 ? '' : 's'}).`);
        const { renderReport, scenarioText, summaryText } = await import('../scenarios/report.js');
        const out = outputFor(globals);
        const colored = (tone: 'green' | 'red' | 'yellow' | 'dim', s: string) => paint(out.color, tone, s);
        // The text report goes out as scenarios finish, in file order, so a long run shows progress.
        const streaming = format === 'text' || o.out !== undefined;
        const done = new Map<object, ScenarioResult>();
        let printed = 0;
        const onResult = (r: ScenarioResult) => {
          done.set(r.scenario, r);
          for (; printed < order.length && done.has(order[printed]); printed++) out.write(scenarioText(done.get(order[printed])!, colored));
        };
        const report = await withApi(c, ({ api }) =>
          runScenarios(api, parsed, {
            grep,
            repeat: o.repeat,
            concurrency: o.concurrency,
            bail: o.bail,
            updateSnapshots: o.updateSnapshots,
            ...(streaming ? { onResult } : {}),
          }),
        );
        if (streaming) {
          // Scenarios --bail left unrun are reported after the run.
          for (const r of report.results.slice(printed)) out.write(scenarioText(r, colored));
          out.write(summaryText(report, colored));
        }
        if (o.out) writeFileSync(o.out, renderReport(report, format as TestFormat));
        else if (!streaming) out.write(renderReport(report, format as TestFormat, colored));
        setExitCode(reportPassed(report) ? EXIT.ok : EXIT.failed);
      }),
    );
}
