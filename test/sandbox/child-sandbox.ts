// Runs a sandbox in a child process for the durability test: argv = dataDir apiKey.
// Prints one JSON line with its URL once listening, then waits to be killed.
import { startSandbox } from '../../src/sandbox/server.js';

const [dataDir, apiKey] = process.argv.slice(2);
const sb = await startSandbox({ dataDir, apiKey, port: 0, callPace: 10 });
process.stdout.write(`${JSON.stringify({ url: sb.url })}\n`);
