// Runs a sandbox in a child process: argv = dataDir apiKey [log]. `log` turns request logging on.
// Prints one JSON line with its URL once listening, then waits to be killed.
import { startSandbox } from '../../src/sandbox/server.js';

const [dataDir, apiKey, log] = process.argv.slice(2);
const sb = await startSandbox({ dataDir, apiKey, port: 0, callPace: 10, logger: log === 'log' });
process.stdout.write(`${JSON.stringify({ url: sb.url })}\n`);
