// The contract between the console/commands and the wire. `src/api/client.ts` implements
// `VoiceAgentApi`; nothing outside src/api knows URLs or headers.
//
// Wire shapes (what the sandbox answers; the client also accepts the alternatives noted):
//   GET    /calls?id&assistantId&phoneNumberId&limit&createdAtGt&createdAtLt
//            -> 200 { message, calls: Call[] }   newest first (createdAt desc, id desc);
//               createdAtGt = created on or after, createdAtLt = created on or before (inclusive);
//               limit default 100, max 1000. List records omit `messages` and `transcript`.
//   GET    /calls/details?id (+ same filters) -> 200 { message, calls: Call[] } full records
//   POST   /calls/outbound { assistantId, phoneNumberId, customer: { number, name? } }
//            -> 201 { message, call }            (client also accepts the envelopes in envelope.ts)
// A write's 2xx is a success whatever its body: without a readable record it is `Written.unread`.
//   POST   /chats { sessionId, input, assistantOverrides?: { variableValues } } -> 201 { message, chat }
//   POST   /sessions { name?, assistantId } -> 201 { message, session }
//   GET    /chats/session/{id} -> 200 { message, session }
//   POST   /assistants {...} -> 201 { message, assistant }   (client also accepts bare)
//   GET    /assistants -> 200 { assistants: Assistant[] }     (client also accepts bare array or data/items/results)
//   GET    /assistants/{id} -> 200 { assistant }               (client also accepts bare)
//   PATCH  /assistants/{id} {...} -> 200 { message, assistant }  (then a GET: the client reports fields not applied)
//   POST   /phone-numbers/inbound/setup { assistantId, phoneNumberId } -> 200 { message, phoneNumber }
//   GET    /phone-numbers -> 200 { phoneNumbers }
//   POST   /files multipart part `file` -> 201 { message, file }
//   GET    /files?page&limit -> 200 { files, pagination }      page from 1, limit default 20, max 100
//   GET    /files/{id} -> 200 { file }
//   DELETE /files/{id} -> 200 { message }
//   GET    /files/{id}/content -> the bytes (file.url points here; needs the key)
//   GET    /openapi.json -> OpenAPI 3.1 (no key)
// Every error: { statusCode, error, message }. Missing/wrong x-api-key -> 401.
import type { Lane } from './http.js';
import type { ConnectionListener, ConnectionState } from './connection-state.js';
import type { ServiceTraits } from './traits.js';
import type { Adaptations } from './adapt.js';
import type { Assistant, AssistantInput, UpdatedAssistant, Call, CallFilters, Chat, ChatSession, KbFile, Pagination, PhoneNumber } from './schemas.js';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Sent in a background lane (http.ts Lane): the archive's sync, paced by its owner. */
  lane?: Lane;
}

export interface OutboundCallInput {
  assistantId: string;
  phoneNumberId: string;
  customer: { number: string; name?: string };
}

interface SendChatInput {
  sessionId: string;
  input: string;
  variableValues?: Record<string, unknown>;
}

interface UploadOptions extends RequestOptions {
  /** Called as bytes leave the client: (sent, total). */
  onProgress?: (sent: number, total: number) => void;
  /** Name to send instead of the path's base name. */
  name?: string;
}

/**
 * What a write's success answer held when it was not a readable record (text/plain, empty, an
 * unexpected shape). The write succeeded: the service said 2xx.
 */
export interface UnreadAnswer {
  status: number;
  /** The service's words, or the start of what came back; '' for an empty body. */
  said: string;
  /** Why it is not the record, e.g. "no call in it" or "id: expected string". */
  problem: string;
  /** Where `record` came from instead, when a re-read found it, e.g. "a re-read of the assistant". */
  recordFrom?: string;
}

/**
 * A write the service accepted (it answered 2xx). `record` is absent when neither the answer nor
 * a re-read gave one: then `unread` says what came back, and the write is still a success.
 */
export interface Written<T> {
  record?: T;
  /** Set when the answer was not a readable record, whether or not a re-read found it. */
  unread?: UnreadAnswer;
  /** The service's message beside the record, like "Assistant created successfully". */
  message?: string;
}

export interface FilesPage {
  files: KbFile[];
  pagination: Pagination;
  /** The answer had no pagination block: `pagination` is made up from the page alone. */
  guessed?: boolean;
}

export interface VoiceAgentApi {
  readonly baseUrl: string;
  /** How the service answered lately, as the transport saw its requests end: the header's indicator. */
  readonly connectionState: ConnectionState;
  /** Calls `listener` each time connectionState changes; returns the unsubscribe. */
  onConnectionState(listener: ConnectionListener): () => void;
  /**
   * What is known of how this service pages and filters (src/api/traits.ts): given at creation
   * (what earlier clients of this profile learned) and updated in place by `learn`.
   */
  readonly traits: Readonly<ServiceTraits>;
  /** Takes in something learned about the service; the client's owner keeps it for the next client. */
  learn(patch: Partial<ServiceTraits>): void;
  /** Each field this client met in another type than its schema's, and each record it skipped (src/api/adapt.ts). */
  readonly adapted?: Adaptations;

  listCalls(filters?: CallFilters, opts?: RequestOptions): Promise<Call[]>;
  callDetails(filters?: CallFilters, opts?: RequestOptions): Promise<Call[]>;
  /** One call's full record (GET /calls/details?id=…); ApiError 404 when absent. */
  getCall(id: string, opts?: RequestOptions): Promise<Call>;
  /**
   * Never sent twice by the client. A timeout or lost connection throws an error whose
   * `mayHaveActed` is true and whose `check` says where to look (the call log, filtered).
   */
  placeOutboundCall(input: OutboundCallInput, opts?: RequestOptions): Promise<Written<Call>>;

  createSession(input: { assistantId: string; name?: string }, opts?: RequestOptions): Promise<Written<ChatSession>>;
  getSession(sessionId: string, opts?: RequestOptions): Promise<ChatSession>;
  sendChat(input: SendChatInput, opts?: RequestOptions): Promise<Written<Chat>>;

  listAssistants(opts?: RequestOptions): Promise<Assistant[]>;
  getAssistant(id: string, opts?: RequestOptions): Promise<Assistant>;
  /** When the answer holds no readable assistant, the newest one with the input's name is looked up. */
  createAssistant(input: AssistantInput, opts?: RequestOptions): Promise<Written<Assistant>>;
  /**
   * PATCH, then a re-read: the record as the service stored it, with `notApplied` naming the
   * fields of the patch it did not apply (the spec's service applies only name, status and
   * description locally). No record only when both the answer and the re-read were unreadable.
   */
  updateAssistant(id: string, patch: AssistantInput, opts?: RequestOptions): Promise<Written<UpdatedAssistant>>;

  listPhoneNumbers(opts?: RequestOptions): Promise<PhoneNumber[]>;
  /** POST /phone-numbers/inbound/setup; returns the service's message (JSON or text/plain). */
  linkNumber(input: { assistantId: string; phoneNumberId: string }, opts?: RequestOptions): Promise<{ message: string; phoneNumber?: PhoneNumber }>;

  listFiles(query?: { page?: number; limit?: number }, opts?: RequestOptions): Promise<FilesPage>;
  getFile(id: string, opts?: RequestOptions): Promise<KbFile>;
  /** Streams the file from disk as multipart part `file`. */
  uploadFile(path: string, opts?: UploadOptions): Promise<Written<KbFile>>;
  deleteFile(id: string, opts?: RequestOptions): Promise<{ message: string }>;

  /** The sandbox's own POST /sandbox/ring (not a hosted endpoint): an inbound call to `did`, or to the next linked number. */
  ringSandbox(did?: string, opts?: RequestOptions): Promise<{ message: string; call?: Call }>;

  close(): Promise<void>;
}
