import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Boundaries: web and server never import each other; common depends on zod alone.
const forbid = (patterns, message) => ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'e2e/artifacts/', 'test-results/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['server/**', 'bench/**', 'scripts/**', 'e2e/**', '*.config.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['web/**'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': forbid(['**/server/**', 'node:*'], 'The web app talks to the server over HTTP only.'),
    },
  },
  {
    // The web app's tests run in Node: they may start a real server for the client to talk to.
    files: ['web/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': forbid(['**/server/**'], 'The web app talks to the server over HTTP only.') },
  },
  {
    files: ['server/**'],
    rules: { 'no-restricted-imports': forbid(['**/web/**'], 'The server does not import the web app.') },
  },
  {
    // The browser extension: a client of the API like the web app, built on common/ alone.
    files: ['extension/**'],
    languageOptions: { globals: { ...globals.browser, chrome: 'readonly' } },
    rules: { 'no-restricted-imports': forbid(['**/server/**', '**/web/**', 'node:*'], 'The extension talks to its instance over HTTP and shares only common/.') },
  },
  {
    files: ['common/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod($|/)|punycode/punycode\\.js$|\\.{1,2}/).*', message: 'common/ imports only zod, punycode (domain names, for the server and the browser alike) and itself.' }] },
      ],
    },
  },
);
