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

/**
 * A call as the platform sends it when its assistant uses a tool, with everything its call object
 * can carry for the detail (Vapi's Call, Artifact, ToolCallMessage, ToolCallResultMessage,
 * CostBreakdown and the `costs` array, Analysis, PerformanceMetrics): a booking reference that is
 * only in the tool's arguments, an order number only in its result, and words in Japanese.
 */
export function vapiToolCall(id = 'call_tool_1', createdAt = '2026-11-21T09:00:00.000Z'): Record<string, unknown> {
  const start = Date.parse(createdAt) + 1000;
  const messages = [
    { role: 'system', message: 'You book appointments.', time: start, secondsFromStart: 0 },
    { role: 'bot', message: 'こんにちは、ご用件をどうぞ。', time: start + 500, endTime: start + 2000, secondsFromStart: 0.5, duration: 1500 },
    { role: 'user', message: '明日の予約を変更したいです', time: start + 3000, endTime: start + 5000, secondsFromStart: 3, duration: 2000 },
    {
      role: 'tool_calls',
      message: '',
      time: start + 5500,
      secondsFromStart: 5.5,
      toolCalls: [{ id: 'tc_1', type: 'function', function: { name: 'lookupBooking', arguments: '{\n  "reference": "BK-7731",\n  "day": "tomorrow"\n}' } }],
    },
    {
      role: 'tool_call_result',
      toolCallId: 'tc_1',
      name: 'lookupBooking',
      result: '{"status":"found","order":"ORD-55821"}',
      time: start + 6000,
      secondsFromStart: 6,
    },
    { role: 'bot', message: 'ご予約を確認しました。', time: start + 6500, endTime: start + 8000, secondsFromStart: 6.5, duration: 1500 },
  ];
  return {
    id,
    orgId: 'org_1',
    createdAt,
    updatedAt: createdAt,
    type: 'inboundPhoneCall',
    status: 'ended',
    assistantId: 'asst_1',
    phoneNumberId: 'pn_1',
    customer: { number: '+81312345678', name: '山田太郎' },
    startedAt: new Date(start).toISOString(),
    endedAt: new Date(start + 60_000).toISOString(),
    endedReason: 'assistant-ended-call',
    cost: 0.1234,
    costBreakdown: {
      transport: 0.01,
      stt: 0.0213,
      llm: 0.0321,
      tts: 0.04,
      vapi: 0.02,
      total: 0.1234,
      llmPromptTokens: 1520,
      llmCompletionTokens: 86,
      ttsCharacters: 412,
    },
    costs: [
      { type: 'transport', provider: 'twilio', minutes: 1, cost: 0.01 },
      { type: 'transcriber', transcriber: { provider: 'deepgram', model: 'nova-2' }, minutes: 1, cost: 0.0213 },
      { type: 'model', model: { provider: 'openai', model: 'gpt-4o' }, promptTokens: 1520, completionTokens: 86, cost: 0.0321 },
      { type: 'voice', voice: { provider: '11labs', voiceId: 'v1' }, characters: 412, cost: 0.04 },
      { type: 'vapi', subType: 'normal', minutes: 1, cost: 0.02 },
    ],
    messages,
    transcript: 'AI: こんにちは、ご用件をどうぞ。\nUser: 明日の予約を変更したいです\nAI: ご予約を確認しました。',
    analysis: {
      summary: 'The caller moved a booking to another day.',
      structuredData: { reference: 'BK-7731', moved: true },
      successEvaluation: 'true',
    },
    recordingUrl: 'https://example.invalid/recordings/call_tool_1.wav',
    artifact: {
      messages,
      recordingUrl: 'https://example.invalid/recordings/call_tool_1.wav',
      performanceMetrics: {
        turnLatencies: [
          { modelLatency: 420, voiceLatency: 180, transcriberLatency: 95, endpointingLatency: 300, turnLatency: 995 },
          { modelLatency: 610, voiceLatency: 210, transcriberLatency: 110, endpointingLatency: 280, turnLatency: 1210 },
        ],
        modelLatencyAverage: 515,
        voiceLatencyAverage: 195,
        transcriberLatencyAverage: 102.5,
        endpointingLatencyAverage: 290,
        turnLatencyAverage: 1102.5,
      },
    },
    monitor: { listenUrl: 'wss://example.invalid/listen' },
  };
}
