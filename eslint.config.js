// ESLint for the TypeScript and the Node scripts: recommended rules plus React hooks rules.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'wasm/build',
      'public/wasm',
      'public/coi-serviceworker.js',
      'tests/artifacts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Emscripten --pre-js files run inside the generated CommonJS glue; --js-library files are
    // read by Emscripten's compiler (mergeInto) and their functions pasted into that glue.
    files: ['wasm/src/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        Module: 'writable',
        require: 'readonly',
        __filename: 'readonly',
        process: 'readonly',
        mergeInto: 'readonly',
        LibraryManager: 'readonly',
        ENVIRONMENT_IS_NODE: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Node scripts; benchmark drivers also hand functions to Chromium pages and Workers.
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser, ...globals.worker } },
  },
);
