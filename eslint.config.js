// Lint (npm run lint, part of npm test): typescript-eslint, the import rules
// and Svelte's rules everywhere; the rules that need type information (a
// promise nobody awaits loses its error) on the main-process and shared code,
// where they matter and where type information is affordable. Formatting is
// prettier's (npm run format); the layer rules and import cycles are checked
// by tests/architecture.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import svelte from 'eslint-plugin-svelte';

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', 'coverage/', '**/*.d.ts', 'scratch/'] },
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-duplicates': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/first': 'error',
    },
  },
  {
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts'],
    ignores: ['**/*.test.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // Cedar is called only through its bindings in auth/cedar/cedarWasm.ts (that file says why); types may come from the package.
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts'],
    ignores: ['src-main/auth/cedar/cedarWasm.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@cedar-policy/cedar-wasm/nodejs',
              message: 'Call Cedar through src-main/auth/cedar/cedarWasm.ts.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
    // The state classes replace their Sets and Maps whole ($state.raw / $derived): a new object is the change.
    rules: { 'svelte/prefer-svelte-reactivity': 'off' },
  },
  {
    // Test doubles and fixtures read loosely typed JSON; the tests assert on it.
    files: ['tests/**', '**/*.spec.ts', '**/*.test.ts', 'bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
