// ESLint for src/ and test/ (run by `npm test` through `npm run lint`): typescript-eslint's
// recommended rules with type information (a floating promise is an error) and React's hooks rules.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Importing node:http as ESM builds its facade, whose lazy exports load Node's bundled undici.
const NODE_HTTP = ['node:http', 'http'].map((name) => ({
  name,
  allowTypeImports: true,
  message: "an ESM import of node:http loads Node's bundled undici (~25 ms): use process.getBuiltinModule('node:http')",
}));

// undici is used through its public index and its published types, not its modules by path.
const UNDICI_INTERNALS = [{ group: ['undici/*'], message: "import from 'undici' (its public index and types), not its internals" }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx,cts}', 'test/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      // Control characters in patterns are this program's subject: escaping terminal text.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The hooks rules and the React Compiler checks where components and hooks live (the console,
    // its store's hooks, any .tsx, the tests' Ink helpers): the compiler's analysis of every other
    // file could find nothing and took its time all the same. Not `refs` and `immutability`: the
    // console reads the latest value from a ref during render on purpose (keys arrive faster than
    // React renders, and every key must see the one before it) and keeps a table's formatted lines
    // in a per-render cache; it does not use the React Compiler.
    files: ['src/ui/**/*.{ts,tsx}', 'src/store/**/*.ts', 'src/**/*.tsx', 'test/**/*.tsx', 'test/ui/**/*.ts', 'test/support/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/refs': 'off',
      'react-hooks/immutability': 'off',
    },
  },
  {
    // The program's own code (tests may run their own HTTP servers).
    files: ['src/**/*.{ts,tsx,cts}'],
    rules: {
      // The first use of Intl (a number's locale string, a collation) pays for ICU's start-up:
      // counts are grouped by src/format/words.ts, text compared by code units.
      'no-restricted-properties': [
        'error',
        { property: 'toLocaleString', message: 'ICU start-up costs ~20 ms: use grouped() from src/format/words.ts' },
        { property: 'localeCompare', message: 'ICU start-up costs ~20 ms: compare with < and >' },
      ],
      '@typescript-eslint/no-restricted-imports': ['error', { paths: NODE_HTTP, patterns: UNDICI_INTERNALS }],
    },
  },
  {
    // A screen folder imports what it shares with other screens from src/ui/screens/shared.ts (or
    // from below the screens), never from another screen folder: `../<folder>/…` from a file in
    // src/ui/screens/<screen>/ is exactly another screen's folder.
    files: ['src/ui/screens/*/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: NODE_HTTP,
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\.?/)[^/]+/',
              message: 'a screen folder does not import from another screen folder: move what both use to src/ui/screens/shared.ts (or below the screens)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // No line longer than 160 columns, comments and strings included (a long string is split
    // with +). URLs are left whole. test/generated/ is written by `npm run openapi-types`.
    files: ['src/**/*.{ts,tsx,cts,mjs}', 'test/**/*.{ts,tsx,mjs}'],
    ignores: ['test/generated/**'],
    rules: { 'max-len': ['error', { code: 160, tabWidth: 2, ignoreUrls: true }] },
  },
  {
    files: ['src/scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
