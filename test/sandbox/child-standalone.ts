// Runs `runStandaloneSandbox` in a child process for the standalone test: argv = dataDir [apiKey].
import { runStandaloneSandbox } from '../../src/sandbox/server.js';

const [dataDir, apiKey] = process.argv.slice(2);
process.exitCode = await runStandaloneSandbox({ port: 0, host: '127.0.0.1', dataDir, apiKey });
