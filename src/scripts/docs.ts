// `npm run docs`: rewrites the generated parts of README.md (the console's key table).
import { readFileSync, writeFileSync } from 'node:fs';
import { withKeyTable } from '../ui/keymap-doc.js';

const before = readFileSync('README.md', 'utf8');
const after = withKeyTable(before);
if (after !== before) writeFileSync('README.md', after);
process.stdout.write(after === before ? 'README.md key table is up to date\n' : 'README.md key table rewritten\n');
