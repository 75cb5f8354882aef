// Cached resources (assistants, numbers, files, single records) and the actions that change them.
// Every fetch goes through the api; each cache carries status, error and fetchedAt.
import type { Assistant, AssistantInput, KbFile, Pagination, PhoneNumber } from '../api/schemas.js';
import type { ConsoleTarget, Resource, SliceCreator } from './types.js';
import { knownUploadLimit, uploadProblem } from '../api/upload-check.js';
import { failure } from '../api/errors.js';
import type { Written } from '../api/contract.js';
import { unreadNote } from '../api/envelope.js';
import { uncertainAfterError, uncertainAfterUnread } from './writes.js';
import { resourceError } from './types.js';
import type { UiActions } from './ui.js';
import { cachedResource, saveCachedList } from './cached.js';
import { loadLinks, rememberLink, type NumberLinks } from '../config/links.js';

export interface FileList {
  files: KbFile[];
  pagination: Pagination | null;
}

interface UploadState {
  status: 'idle' | 'uploading' | 'error' | 'done';
  path: string;
  sent: number;
  total: number;
  error?: string;
}

export interface ResourcesState {
  assistants: Resource<Assistant[]>;
  numbers: Resource<PhoneNumber[]>;
  files: Resource<FileList>;
  /** Single records by `kind:id` (assistant:…, call:…, file:…). */
  records: Record<string, Resource<unknown>>;
  upload: UploadState;
  /**
   * What the last create request returned when it may have made an assistant without showing
   * it (no answer, or an answer with no readable assistant); the form asks before sending again.
   */
  createAttempt: string | null;
  /** Numbers this profile linked itself (number id → assistant id): what the console says when the service's records do not. */
  numberLinks: NumberLinks;
}

/**
 * How a list is (re)loaded. `force`: fetch even when loaded (the cached data stays on screen,
 * marked refreshing); `maxAgeMs`: fetch when loaded longer ago than this; `quiet`: a poll, which
 * does not mark the screen refreshing (it would blink every few seconds).
 */
interface LoadOptions {
  force?: boolean;
  maxAgeMs?: number;
  quiet?: boolean;
}

export interface ResourcesActions {
  /** Resolves once the lists' cached rows being written are on disk (before the console closes). */
  flushCachedLists(): Promise<void>;
  /** Sets a single record (`kind:id`) that another slice loaded itself (a call, from the archive or the service). */
  putRecord(key: string, record: Resource<unknown>): void;
  loadAssistants(opts?: LoadOptions): Promise<void>;
  loadNumbers(opts?: LoadOptions): Promise<void>;
  /** First page (or reload of every page loaded); `more` appends the next page if there is one. */
  loadFiles(opts?: LoadOptions & { more?: boolean }): Promise<void>;
  loadAssistant(id: string): Promise<void>;
  loadFile(id: string, opts?: { quiet?: boolean }): Promise<void>;
  /**
   * Creates once: refused (null) while `createAttempt` is set unless `again` (the form asks first).
   * 'created' when the service accepted it but no assistant could be read from the answer or found.
   * onError: also given the failure (a form shows a 400 naming a field in that field).
   */
  createAssistant(input: AssistantInput, opts?: { again?: boolean; onError?: (err: unknown) => void }): Promise<Assistant | 'created' | null>;
  /** The record as stored; 'saved' when the service accepted the patch but no record could be read; null when it failed. */
  updateAssistant(id: string, patch: AssistantInput, done?: string, onError?: (err: unknown) => void): Promise<Assistant | 'saved' | null>;
  linkNumber(phoneNumberId: string, assistantId: string): Promise<boolean>;
  uploadFile(path: string): Promise<KbFile | null>;
  deleteFile(id: string): Promise<boolean>;
}

export const FILES_PAGE_SIZE = 50;

/** The loaded files are the newest first, a prefix of the service's list: the next page starts where they end. */
function nextFilePage(loaded: number, pageSize = FILES_PAGE_SIZE): number {
  return Math.floor(loaded / pageSize) + 1;
}

/** Whether the service has files beyond those loaded. */
export function moreFiles(list: FileList): boolean {
  return list.pagination !== null && list.files.length < list.pagination.total;
}

/** The pagination after one file was added (+1) or deleted (-1) here: "N of M files" stays true. */
function counted(p: Pagination | null, by: number): Pagination | null {
  if (!p) return p;
  const total = Math.max(0, p.total + by);
  return { ...p, total, totalPages: Math.ceil(total / p.limit) };
}

type Full = ResourcesState & { target: ConsoleTarget; actions: ResourcesActions & UiActions };

const idle = { status: 'idle' } as const;

export const createResourcesSlice: SliceCreator<ResourcesState, ResourcesActions, Full> = (set, get, { api, target, debugLog, gaps, onDispose }) => {
  // The console closed: answers that arrive after it are neither shown nor cached.
  let disposed = false;
  onDispose(() => (disposed = true));
  /** The lists' cached rows being written: flushCachedLists() waits for them. */
  const cacheWrites = new Set<Promise<void>>();
  /** Files per page: ours, or fewer where the service caps its pages (the page numbers must count in what it sends). */
  const filesPage = () => Math.min(FILES_PAGE_SIZE, api.traits.filesPageCap ?? FILES_PAGE_SIZE);
  /** Loads into a top-level cache key unless it is already loading (or ready, unless forced). */
  const inFlight = new Set<string>();
  async function load<K extends 'assistants' | 'numbers' | 'files'>(key: K, opts: LoadOptions = {}, fetch: () => Promise<ResourcesState[K]['data']>) {
    const cur = get()[key];
    const fresh = cur.status === 'ready' && !opts.force && (opts.maxAgeMs === undefined || Date.now() - (cur.fetchedAt ?? 0) < opts.maxAgeMs);
    if (cur.status === 'loading' || inFlight.has(key) || fresh) return;
    inFlight.add(key);
    // The cached data stays: screens show it, marked refreshing (a poll leaves the status as it is).
    if (!opts.quiet || !cur.data) set({ [key]: { ...cur, status: 'loading', error: undefined, hint: undefined, logged: undefined } } as Partial<Full>);
    try {
      const fetched = await fetch();
      await gaps.gap(); // drawn between two keys, not in front of one
      if (disposed) return; // the console closed meanwhile: nothing to show, nor to cache
      // What the service sent is what is shown (the cached rows, a poll's answer): the same
      // object stays, so the screens built on it (the call log's names) format nothing again.
      const same = cur.data !== undefined && JSON.stringify(fetched) === JSON.stringify(get()[key].data);
      const data = same ? get()[key].data : fetched;
      set({ [key]: { status: 'ready', data, fetchedAt: Date.now() } } as Partial<Full>);
      keep(key);
    } catch (err) {
      // Data already shown stays, marked stale with the error (the header says so).
      set({ [key]: { ...get()[key], status: 'error', ...resourceError(err, debugLog) } } as Partial<Full>);
    } finally {
      inFlight.delete(key);
    }
  }

  /**
   * Writes a list as the store now holds it to the next start's cache: after a load, and after an
   * edit made here (a save, a link, an upload, a delete), so a restart never shows the rows from
   * before the edit. Saved as of when its rows were fetched, so the mark's age stays true.
   */
  function keep(key: 'assistants' | 'numbers' | 'files') {
    const { data, fetchedAt } = get()[key];
    if (data === undefined || disposed) return;
    const write = saveCachedList(target, key, data, fetchedAt);
    cacheWrites.add(write);
    void write.then(() => cacheWrites.delete(write));
  }

  async function loadRecord(key: string, fetch: () => Promise<unknown>, quiet = false) {
    const cur = get().records[key] ?? idle;
    if (cur.status === 'loading' || inFlight.has(key)) return;
    inFlight.add(key);
    if (!quiet || !cur.data)
      set((s) => ({ records: { ...s.records, [key]: { ...cur, status: 'loading', error: undefined, hint: undefined, logged: undefined } } }));
    try {
      const data = await fetch();
      set((s) => ({ records: { ...s.records, [key]: { status: 'ready', data, fetchedAt: Date.now() } } }));
    } catch (err) {
      set((s) => ({ records: { ...s.records, [key]: { ...cur, status: 'error', ...resourceError(err, debugLog) } } }));
    } finally {
      inFlight.delete(key);
    }
  }

  /** A link made here, kept for a service whose number records do not say it (on disk when the console has a state dir). */
  function rememberNumberLink(phoneNumberId: string, assistantId: string) {
    const t = get().target;
    let links: NumberLinks = { ...get().numberLinks, [phoneNumberId]: assistantId };
    try {
      if (t.stateDir && t.kind === 'remote') links = rememberLink(t.profile, t.baseUrl, phoneNumberId, assistantId, t.stateDir);
    } catch (err) {
      debugLog?.(`could not keep the number link: ${failure(err).message}`);
    }
    set({ numberLinks: links });
  }

  const replaceAssistant = (a: Assistant) => {
    set((s) => ({
      assistants: s.assistants.data
        ? {
            ...s.assistants,
            data: s.assistants.data.some((x) => x.id === a.id) ? s.assistants.data.map((x) => (x.id === a.id ? a : x)) : [a, ...s.assistants.data],
          }
        : s.assistants,
      records: { ...s.records, [`assistant:${a.id}`]: { status: 'ready', data: a, fetchedAt: Date.now() } },
    }));
    keep('assistants');
  };

  return {
    state: {
      // The last-known rows, marked cached, until the service answers (nothing without a cache dir).
      assistants: cachedResource<Assistant[]>(target, 'assistants'),
      numbers: cachedResource<PhoneNumber[]>(target, 'numbers'),
      files: cachedResource<FileList>(target, 'files'),
      records: {},
      upload: { status: 'idle', path: '', sent: 0, total: 0 },
      createAttempt: null,
      numberLinks: {},
    },
    actions: {
      async flushCachedLists() {
        await Promise.all(cacheWrites);
      },
      putRecord(key, record) {
        set((s) => ({ records: { ...s.records, [key]: record } }));
      },
      loadAssistants: (opts) => load('assistants', opts, () => api.listAssistants()),
      async loadNumbers(opts) {
        await load('numbers', opts, () => api.listPhoneNumbers());
        const t = get().target;
        if (t.stateDir && !disposed) {
          const links = loadLinks(t.profile, t.baseUrl, t.stateDir);
          if (JSON.stringify(links) !== JSON.stringify(get().numberLinks)) set({ numberLinks: links });
        }
      },
      async loadFiles(opts) {
        const cur = get().files;
        if (opts?.more) {
          if (cur.status !== 'ready' || !cur.data || !moreFiles(cur.data)) return;
          set({ files: { ...cur, status: 'loading' } });
          try {
            const size = filesPage();
            const page = await api.listFiles({ page: nextFilePage(cur.data.files.length, size), limit: size });
            const seen = new Set(cur.data.files.map((f) => f.id));
            const files = [...cur.data.files, ...page.files.filter((f) => !seen.has(f.id))];
            set({ files: { status: 'ready', data: { files, pagination: page.pagination }, fetchedAt: Date.now() } });
          } catch (err) {
            set({ files: { ...get().files, status: 'error', ...resourceError(err, debugLog) } });
          }
          return;
        }
        // A reload fetches as many pages as are loaded, so the rows scrolled to stay.
        const size = filesPage();
        const pages = Math.max(1, Math.ceil((cur.data?.files.length ?? 0) / size));
        await load('files', opts, async () => {
          const files: KbFile[] = [];
          const seen = new Set<string>();
          let pagination: Pagination | null = null;
          for (let n = 1; n <= pages; n++) {
            const page = await api.listFiles({ page: n, limit: size });
            for (const f of page.files) {
              if (seen.has(f.id)) continue;
              seen.add(f.id);
              files.push(f);
            }
            pagination = page.pagination;
            if (n >= page.pagination.totalPages) break;
          }
          return { files, pagination };
        });
      },
      loadAssistant: (id) => loadRecord(`assistant:${id}`, () => api.getAssistant(id)),
      loadFile: (id, opts) => loadRecord(`file:${id}`, () => api.getFile(id), opts?.quiet),
      async createAssistant(input, opts) {
        const { flash } = get().actions;
        if (get().createAttempt && !opts?.again) {
          flash('The last create request may have made the assistant: confirm before sending it again', 'error');
          return null;
        }
        set({ createAttempt: null });
        let created: Written<Assistant>;
        try {
          created = await api.createAssistant(input);
        } catch (err) {
          const uncertain = uncertainAfterError(err);
          set({ createAttempt: uncertain });
          flash(`${uncertain ? 'The assistant may have been created' : 'Could not create the assistant'}: ${failure(err).message}`, 'error');
          opts?.onError?.(err);
          return null;
        }
        const a = created.record;
        if (!a) {
          // Created, by the service's word, but not found: the list, reloaded, is where it shows.
          set({ createAttempt: created.unread ? uncertainAfterUnread(created.unread) : null });
          flash(created.unread ? `${unreadNote('Created', created.unread)}; reloading the list` : 'Created; reloading the list');
          void get().actions.loadAssistants({ force: true });
          return 'created';
        }
        replaceAssistant(a);
        flash(
          created.unread
            ? `Created assistant ${a.name ?? a.id} (found as ${created.unread.recordFrom ?? 'a re-read'}: the answer held no record)`
            : `Created assistant ${a.name ?? a.id}`,
        );
        return a;
      },
      async updateAssistant(id, patch, done, onError) {
        try {
          const saved = await api.updateAssistant(id, patch);
          const a = saved.record;
          if (!a) {
            // Saved, by the service's word; what it stored is read again when the page shows.
            void get().actions.loadAssistant(id);
            void get().actions.loadAssistants({ force: true });
            get().actions.flash(saved.unread ? unreadNote('Saved', saved.unread) : 'Saved');
            return 'saved';
          }
          replaceAssistant(a);
          get().actions.flash(done ?? `Saved assistant ${a.name ?? a.id}`);
          return a;
        } catch (err) {
          get().actions.flash(`Could not save the assistant: ${failure(err).message}`, 'error');
          onError?.(err);
          return null;
        }
      },
      async linkNumber(phoneNumberId, assistantId) {
        try {
          const r = await api.linkNumber({ phoneNumberId, assistantId });
          rememberNumberLink(phoneNumberId, assistantId);
          if (r.phoneNumber) {
            const pn = r.phoneNumber;
            set((s) => ({ numbers: s.numbers.data ? { ...s.numbers, data: s.numbers.data.map((n) => (n.id === pn.id ? pn : n)) } : s.numbers }));
            keep('numbers');
          } else {
            await get().actions.loadNumbers({ force: true });
          }
          get().actions.flash(r.message || 'Inbound assistant linked');
          return true;
        } catch (err) {
          get().actions.flash(`Could not link the number: ${failure(err).message}`, 'error');
          return false;
        }
      },
      async uploadFile(path) {
        // The same check as `files upload`, whoever asked: nothing is sent for a path it refuses.
        const problem = uploadProblem(path, knownUploadLimit(target.kind));
        if (problem) {
          set({ upload: { status: 'error', path, sent: 0, total: 0, error: problem } });
          get().actions.flash(`Upload refused: ${problem}`, 'error');
          return null;
        }
        set({ upload: { status: 'uploading', path, sent: 0, total: 0 } });
        try {
          const uploaded = await api.uploadFile(path, {
            onProgress: (sent, total) => set({ upload: { status: 'uploading', path, sent, total } }),
          });
          const file = uploaded.record;
          if (!file) {
            // Uploaded, by the service's word: the list, reloaded, shows it.
            set((s) => ({ upload: { ...s.upload, status: 'done' } }));
            get().actions.flash(uploaded.unread ? unreadNote(`Uploaded ${path}`, uploaded.unread) : `Uploaded ${path}`);
            void get().actions.loadFiles({ force: true });
            return null;
          }
          set((s) => ({
            upload: { ...s.upload, status: 'done' },
            files: s.files.data
              ? {
                  ...s.files,
                  data: { files: [file, ...s.files.data.files.filter((f) => f.id !== file.id)], pagination: counted(s.files.data.pagination, +1) },
                }
              : s.files,
            records: { ...s.records, [`file:${file.id}`]: { status: 'ready', data: file, fetchedAt: Date.now() } },
          }));
          keep('files');
          get().actions.flash(`Uploaded ${file.name ?? path}`);
          return file;
        } catch (err) {
          set((s) => ({ upload: { ...s.upload, status: 'error', error: failure(err).message } }));
          get().actions.flash(`Upload failed: ${failure(err).message}`, 'error');
          return null;
        }
      },
      async deleteFile(id) {
        const name = get().files.data?.files.find((f) => f.id === id)?.name ?? id;
        try {
          const r = await api.deleteFile(id);
          set((s) => ({
            files: s.files.data
              ? { ...s.files, data: { files: s.files.data.files.filter((f) => f.id !== id), pagination: counted(s.files.data.pagination, -1) } }
              : s.files,
          }));
          keep('files');
          get().actions.flash(r.message || `Deleted ${name}`);
          return true;
        } catch (err) {
          get().actions.flash(`Could not delete ${name}: ${failure(err).message}`, 'error');
          return false;
        }
      },
    },
  };
};
