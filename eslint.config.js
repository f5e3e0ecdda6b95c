import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', '.bench/', 'web/dist/', 'client/dist/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setImmediate: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // The web console runs in the browser.
    files: ['web/src/**'],
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', location: 'readonly', sessionStorage: 'readonly', fetch: 'readonly', crypto: 'readonly', FormData: 'readonly', XMLHttpRequest: 'readonly', IntersectionObserver: 'readonly', Intl: 'readonly' },
    },
  },
  { files: ['bench/**', 'bin/**', 'test/**', 'client/scripts/**', 'client/examples/**'], rules: { 'no-console': 'off' } },
);
