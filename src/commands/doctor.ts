// switchboard doctor: probes the current target with read-only requests (src/api/doctor.ts),
// prints one line per check, and keeps what it learned for the profile (src/config/traits.ts).
import { Command } from 'commander';
import type { CheckStatus, DoctorCheck, DoctorReport } from '../api/doctor.js';
import type { ServiceTraits } from '../api/traits.js';
import { type Column, type Tone } from '../format/column.js';
import { escapeLine, jsonText } from '../format/escape.js';
import { toCsv, toTable } from './output.js';
import { action, EXIT, setExitCode, withApi, writeErr } from './runtime.js';

const TONE: Record<CheckStatus, Tone> = { ok: 'green', adapted: 'cyan', warning: 'yellow', failed: 'red' };

export const CHECK_COLUMNS: Column<DoctorCheck>[] = [
  { header: 'status', value: (c) => c.status, tone: (c) => TONE[c.status] },
  { header: 'check', value: (c) => c.check },
  { header: 'finding', value: (c) => c.finding, grow: true },
];

/** The exit code of a report: a refused key as every command's (4), any other failed check 1. */
function doctorExitCode(report: DoctorReport): number {
  if (report.failed === 'auth') return EXIT.auth;
  return report.failed ? EXIT.failed : EXIT.ok;
}

/** What was kept for the profile, in a few words ("calls page 100, date filter createdAtGe/createdAtLe inclusive, 7 envelopes"). */
export function describeLearned(t: Partial<ServiceTraits>): string {
  const parts: string[] = [];
  if (t.callPageCap !== undefined) parts.push(`calls page ${t.callPageCap}`);
  if (t.filesPageCap !== undefined) parts.push(`files page ${t.filesPageCap}`);
  if (t.callDateFilter === 'none') parts.push('no date filter (filtered here)');
  else if (t.callDateFilter)
    parts.push(`date filter ${t.callDateFilter.after}/${t.callDateFilter.before} ${t.callDateFilter.inclusive ? 'inclusive' : 'strict'}`);
  const envelopes = Object.keys(t.envelopes ?? {}).length;
  if (envelopes) parts.push(`${envelopes} envelope${envelopes === 1 ? '' : 's'}`);
  return parts.join(', ');
}

export function doctorCommand(): Command {
  return new Command('doctor')
    .description('check how the service behaves, with read-only requests, and keep what it learns for the profile')
    .addHelpText(
      'after',
      '\nChecks, one line each (ok, adapted, warning or failed): the key; the envelope of each list and\n' +
        'record; its records, read field by field as the commands read them; the page size GET /calls\n' +
        'and GET /files allow; which created-at filters GET /calls honours,\n' +
        'strict or inclusive; where calls keep transcript, summary, duration and cost; the clock.\n\n' +
        'Exit codes: 0 every check ok, adapted or a warning; 1 a check failed; 4 the key was refused.\n\nExamples:\n  $ switchboard doctor\n' +
        '  $ switchboard --profile prod doctor -o json',
    )
    .action(
      action('check the service', async (_o: object, c: Command) =>
        withApi(c, async ({ target, out, globals }) => {
          const { runDoctor } = await import('../api/doctor.js');
          const report = await runDoctor({
            baseUrl: target.baseUrl!,
            apiKey: target.apiKey!,
            debug: globals.debug ? (line: string) => writeErr(`debug: ${line}`) : undefined,
          });
          const embedded = target.kind === 'sandbox';
          let remembered = false;
          if (report.learned) {
            // Kept where the client looks for it (the embedded sandbox under one name, whatever its port).
            const [{ traitsKeyOf }, { rememberTraits }] = await Promise.all([import('../target.js'), import('../config/traits.js')]);
            const key = traitsKeyOf(target);
            rememberTraits(key.profile, key.url, report.learned);
            remembered = true;
          }
          const learned = report.learned ? describeLearned(report.learned) : '';
          switch (out.format) {
            case 'json':
              out.write(
                jsonText(
                  {
                    profile: target.profile,
                    target: embedded ? 'embedded sandbox' : 'remote service',
                    baseUrl: report.baseUrl,
                    ok: report.failed === undefined,
                    checks: report.checks.map(({ check, status, finding, facts }) => ({ check, status, finding, ...facts })),
                    learned: report.learned ?? null,
                    remembered,
                  },
                  2,
                ) + '\n',
              );
              break;
            case 'csv':
              out.write(toCsv(report.checks, CHECK_COLUMNS, out.tty));
              break;
            case 'ids':
              out.write(report.checks.map((k) => `${escapeLine(k.check)}\n`).join(''));
              break;
            case 'table':
              out.write(toTable(report.checks, CHECK_COLUMNS, out.tty, out.color, { width: out.width, wide: out.wide }));
              if (remembered && learned) writeErr(`kept for profile ${target.profile}: ${learned}`);
          }
          setExitCode(doctorExitCode(report));
        }),
      ),
    );
}
