// switchboard mcp: the MCP server for coding agents (src/mcp/), on stdio or, with --http, on loopback.
import { Command } from 'commander';
import { action, addSecret, globalsOf, UsageError, writeErr } from './runtime.js';
import { io } from './io.js';

interface McpFlags {
  http?: string;
  tokenFile?: string;
  allowWrites?: boolean;
  allowCalls?: boolean;
  testsDir: string;
}

export function mcpCommand(): Command {
  return new Command('mcp')
    .description('serve the commands, the call archive and the tests to coding agents over the Model Context Protocol (stdio, or --http)')
    .option('--http <[host:]port>', "serve the protocol's Streamable HTTP transport on loopback instead of stdio (port 0 picks one)")
    .option('--token-file <path>', 'with --http: the bearer token clients must send, read from this file (default: a new one, printed once)')
    .option('--allow-writes', 'allow tools that change the service: create and update assistants, link numbers, upload, chat and tests')
    .option('--allow-calls', 'also allow what costs money or reaches people: outbound calls, and chats and tests against a live service')
    .option('--tests-dir <dir>', 'where tests_run and tests_from_call read and write scenario files', 'tests')
    .addHelpText(
      'after',
      '\nRead-only unless --allow-writes; a read-only profile refuses every write whatever the flags.\n\nExamples:\n' +
        '  $ switchboard mcp                                   on stdio, for an agent that starts it\n' +
        '  $ switchboard mcp --allow-writes                    may edit assistants and run tests on the sandbox\n' +
        '  $ switchboard mcp --http 127.0.0.1:8765 --token-file ~/.config/switchboard/mcp-token',
    )
    .action(
      action('serve MCP', async (o: McpFlags, c: Command) => {
        if (o.tokenFile && !o.http) throw new UsageError('--token-file goes with --http (stdio needs no token).');
        if (o.allowCalls && !o.allowWrites) throw new UsageError('--allow-calls needs --allow-writes too (a call is a write).');
        const [{ listenAddress, newToken, serveHttp }, { McpBackend }, { connect }, { readHandedFile }] = await Promise.all([
          import('../mcp/http.js'),
          import('../mcp/server.js'),
          import('../target.js'),
          import('../config/files.js'),
        ]);
        const where = o.http === undefined ? undefined : listenAddress(o.http);
        const token = o.tokenFile ? readHandedFile(o.tokenFile, 'a token file', { maxBytes: 4096 }).trim() : where ? newToken() : '';
        if (where && token.length < 16) throw new UsageError(`${o.tokenFile}: the token must be at least 16 characters`);
        const globals = globalsOf(c);
        const conn = await connect({ profile: globals.profile, env: process.env, readOnly: globals.readOnly, sandboxIn: 'shared' });
        addSecret(conn.target.apiKey);
        addSecret(token);
        const backend = new McpBackend(conn, {
          allowWrites: o.allowWrites === true,
          allowCalls: o.allowCalls === true,
          testsDir: o.testsDir,
          version: c.parent?.version() ?? '0.0.0',
        });
        const stopped = new Promise<void>((resolve) => {
          for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve());
        });
        const target = conn.target.kind === 'sandbox' ? 'the embedded sandbox' : `${conn.target.profile} (${conn.target.baseUrl})`;
        if (where) {
          const { server, url } = await serveHttp(backend, where, token);
          writeErr(`switchboard mcp: serving ${target} at ${url}`);
          // The token goes to stderr once, whole: the one place it can be read from (the file, when given, holds it).
          if (!o.tokenFile) io().stderr.write(`switchboard mcp: bearer token (shown once): ${token}\n`);
          await stopped;
          // A client's open event stream would hold close() forever: the connections go with the server.
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeAllConnections();
          await closed;
        } else {
          const [{ StdioServerTransport }, { buildServer }] = await Promise.all([
            import('@modelcontextprotocol/sdk/server/stdio.js'),
            import('../mcp/server.js'),
          ]);
          const transport = new StdioServerTransport(io().stdin, io().stdout);
          const closed = new Promise<void>((resolve) => {
            transport.onclose = () => resolve();
            io().stdin.once('end', () => resolve());
          });
          await buildServer(backend).connect(transport);
          await Promise.race([stopped, closed]);
        }
        await backend.close();
      }),
    );
}
