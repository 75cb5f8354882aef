// Records in the hosted platform's shape (it forwards Vapi's call object, from Vapi's public API
// reference): text in messages[].message, roles bot/user/system, no durationSeconds, the summary
// under analysis, the cost under costBreakdown. Shared by the records, archive and console tests.

/** A call as the hosted platform forwards it (Vapi's call object). */
export const VAPI_CALL = {
  id: 'call_vapi_1',
  orgId: 'org_1',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:02:00.000Z',
  type: 'inboundPhoneCall',
  status: 'ended',
  assistantId: 'asst_1',
  phoneNumberId: 'pn_1',
  customer: { number: '+14155550100' },
  startedAt: '2026-11-20T10:00:05.000Z',
  endedAt: '2026-11-20T10:01:28.500Z',
  endedReason: 'customer-ended-call',
  costBreakdown: { transport: 0.01, stt: 0.02, llm: 0.03, tts: 0.04, vapi: 0.05, total: 0.15 },
  messages: [
    { role: 'system', message: 'You are the front desk.', time: 1795082405000, secondsFromStart: 0 },
    { role: 'bot', message: 'Hello, Harbourview dental, how can I help?', time: 1795082406000, secondsFromStart: 1.2, endTime: 1795082408000 },
    { role: 'user', message: 'I would like to move my appointment to Thursday.', time: 1795082410000, secondsFromStart: 5.1 },
    { role: 'tool_calls', toolCalls: [{ id: 't1' }], time: 1795082411000, secondsFromStart: 6 },
  ],
  analysis: { summary: 'The caller moved a cleaning appointment to Thursday.', successEvaluation: 'true' },
  recordingUrl: 'https://example.invalid/rec.wav',
  artifact: { messages: [] },
};

/** The same call, `n` seconds long, created at `createdAt`, with its own id and words. */
export function vapiCall(id: string, createdAt: string, words: { said: string; summary: string }, seconds = 90): typeof VAPI_CALL {
  const start = Date.parse(createdAt) + 1000;
  return {
    ...structuredClone(VAPI_CALL),
    id,
    createdAt,
    updatedAt: createdAt,
    startedAt: new Date(start).toISOString(),
    endedAt: new Date(start + seconds * 1000).toISOString(),
    messages: [
      { role: 'bot', message: 'Hello, how can I help?', time: start, secondsFromStart: 0 },
      { role: 'user', message: words.said, time: start + 2000, secondsFromStart: 2 },
    ],
    analysis: { summary: words.summary, successEvaluation: 'true' },
  };
}
