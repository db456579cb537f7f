// Lint: typescript-eslint's recommended rules, and bounds on what hurts a reader — function length, complexity,
// nesting depth — instead of a count of lines per file. Formatting is prettier's (npm run format), not lint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // A leading underscore marks a value left out on purpose (`const { password: _p, ...rest } = args`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      complexity: ['error', 20],
      'max-depth': ['error', 4],
    },
  },
  {
    // The store is asynchronous (rule 21): a promise nobody awaits is a write nobody waits for, or an error nobody
    // sees. Type-aware, so for the code the compiler builds and the tests.
    files: ['cmd/**/*.ts', 'internal/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Tests read verbatim JSON fixtures and poke at wire shapes: `any` is the honest type there. A test file's
    // describe() callback is a list of cases, not a function to read top to bottom: its length is not bounded (the
    // fakes under test/fakes are code like any other, and are).
    files: ['test/**/*.ts'],
    ignores: ['test/fakes/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'max-lines-per-function': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
