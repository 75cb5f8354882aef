// Runs a sandbox as its own process (for the fuzz, load, crash, durability and logging tests): the parent can watch
// it die, SIGKILL it, and read everything it logged. Configured by environment:
// SANDBOX_DATA_DIR, SANDBOX_API_KEY, SANDBOX_PORT, SANDBOX_SEED=0, SANDBOX_MAX_UPLOAD (bytes), SANDBOX_LOGGER=1,
// SANDBOX_CALL_PACE (ms per simulated second).
// Prints one line `READY <url>` once listening.
import { startSandbox } from '../../src/sandbox/server.js';

const env = process.env;
const sb = await startSandbox({
  dataDir: env.SANDBOX_DATA_DIR!,
  apiKey: env.SANDBOX_API_KEY!,
  host: '127.0.0.1',
  port: Number(env.SANDBOX_PORT ?? 0),
  seed: env.SANDBOX_SEED !== '0',
  maxUploadBytes: env.SANDBOX_MAX_UPLOAD ? Number(env.SANDBOX_MAX_UPLOAD) : undefined,
  logger: env.SANDBOX_LOGGER === '1',
  callPace: Number(env.SANDBOX_CALL_PACE ?? 20),
});
process.stdout.write(`READY ${sb.url}\n`);
const stop = () => void sb.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
