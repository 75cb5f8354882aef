// Placeholder until the console lands (issue 3).
export async function runConsole(_opts: { profile?: string }): Promise<number> {
  process.stderr.write('switchboard: the console is not built yet\n');
  return 1;
}
