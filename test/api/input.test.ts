// Dates and phone numbers as people type them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDateInput } from '../../src/api/dates.js';
import { isE164, E164_HINT } from '../../src/api/validate.js';
import { InputError } from '../../src/api/errors.js';

const now = new Date('2026-11-21T12:00:00.000Z');

test('dates: accepted forms', () => {
  const table: Array<[string, string | Date, { endOfDay?: boolean }?]> = [
    ['2026-11-01T09:30:00Z', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T09:30Z', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T09:30:15.25Z', '2026-11-01T09:30:15.250Z'],
    ['2026-11-01 09:30:00+01:00', '2026-11-01T08:30:00.000Z'],
    ['2026-11-01T09:30:00-0530', '2026-11-01T15:00:00.000Z'],
    ['2026-11-01T09:30:00', new Date(2026, 10, 1, 9, 30)],
    ['2026-11-01', new Date(2026, 10, 1)],
    ['2026-11-01', new Date(2026, 10, 1, 23, 59, 59, 999), { endOfDay: true }],
    ['2026-11-01T09:30Z', '2026-11-01T09:30:00.000Z', { endOfDay: true }],
    ['2024-02-29', new Date(2024, 1, 29)],
    ['30m', '2026-11-21T11:30:00.000Z'],
    ['24h', '2026-11-20T12:00:00.000Z'],
    ['7d', '2026-11-14T12:00:00.000Z'],
    ['2w', '2026-11-07T12:00:00.000Z'],
    [' 90s ', '2026-11-21T11:58:30.000Z'],
    ['3D', '2026-11-18T12:00:00.000Z'],
  ];
  for (const [text, want, extra] of table) {
    const got = parseDateInput(text, { now, ...extra });
    assert.equal(got.toISOString(), new Date(want).toISOString(), text);
  }
  assert.equal(parseDateInput('1h', now).toISOString(), '2026-11-21T11:00:00.000Z', 'now may be given directly');
});

test('dates: refused forms name the value and the accepted forms', () => {
  for (const text of [
    '',
    'yesterday',
    '2026-13-01',
    '2026-02-30',
    '2025-02-29',
    '2026-11-01T24:00Z',
    '2026-11-01T09:60Z',
    '11/01/2026',
    '7 days',
    '-3d',
    '2026-11-01T09:00+25:00',
    '5y',
  ]) {
    assert.throws(
      () => parseDateInput(text, { now }),
      (e: unknown) => e instanceof InputError && e.message.startsWith(`"${text}"`) && /ISO 8601/.test(e.message),
      text,
    );
  }
});

test('E.164 numbers', () => {
  for (const ok of ['+14155550123', '+442071838750', '+12', '+123456789012345']) assert.equal(isE164(ok), true, ok);
  for (const bad of ['14155550123', '+0123456', '+1 415 555 0123', '+1-415-555-0123', '+1234567890123456', '+', '', '+1a', ' +14155550123']) {
    assert.equal(isE164(bad), false, bad);
  }
  assert.match(E164_HINT, /\+14155550123/);
});
