// Placeholder until the commands land (issue 5).
export async function runCommands(_argv: string[], _version: string): Promise<number> {
  process.stderr.write('switchboard: commands are not built yet\n');
  return 2;
}
