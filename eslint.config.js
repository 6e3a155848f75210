// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The core (http, store, outbound, lib, ledger, observability, deliveries, formats, jobs, and ports.ts: the effects
 * it takes) never reaches into a feature, nor into the composition root that wires features in (deps.ts, app.ts,
 * service.ts, retention.ts, main.ts): a core module takes the ports it uses (src/ports.ts), not the whole Deps.
 */
const CORE = [
  'src/http/**',
  'src/store/**',
  'src/outbound/**',
  'src/lib/**',
  'src/ledger/**',
  'src/observability/**',
  'src/delivery-core/**',
  'src/formats/**',
  'src/jobs/**',
  'src/ports.ts',
];
const noFeatureImports = {
  group: ['**/features/**'],
  message: 'The core imports no feature: move what it needs into the core, or invert the call.',
};
const noRootImports = {
  regex: '^(\\.\\./)+(deps|app|service|main|retention)\\.js$|^\\./(deps|app|service|main)\\.js$',
  message:
    'The core imports no part of the composition root: take the ports you use (src/ports.ts), or be handed what you need.',
};
/** jobs/ is the machinery below every worker (pollers, pools, the sweeper): delivery-core/ runs on it, never the reverse. */
const noJobsUpward = {
  group: ['**/delivery-core/**', '**/ledger/**', '**/http/**'],
  message: 'jobs/ runs steps it is handed: it imports no owner of them.',
};

/**
 * Every engine difference lives in src/store/: outside it, code states intentions through Store and never names an
 * engine's module or an engine's constant. The exceptions pick an engine by design: the composition root (deps.ts) and
 * the SQLite backup command (backup.ts).
 */
const engineModules = {
  group: ['**/store/sqlite/**', '**/store/postgres/**'],
  message: "An engine's module is the store's own: state an intention through Store (src/store/store.ts) instead.",
};
const engineNames = {
  group: ['**/store/**'],
  importNamePattern: '^(POSTGRES|SQLITE)_',
  message: "An engine's constant is the store's own: state an intention through Store (src/store/store.ts) instead.",
};
const ENGINE_CHOOSERS = ['src/deps.ts', 'src/backup.ts'];

/**
 * A feature imports another feature only through that feature's index.ts: from src/features/<f>/ a path
 * that leaves the feature (`up` levels) and enters another one must end at its index.js.
 */
const otherFeature = (up) => ({
  regex: `^${'\\.\\./'.repeat(up)}(?!\\.\\.)[^/]+/(?!index\\.js$)`,
  message: 'Import another feature through its index.ts (export what it offers there).',
});

export default tseslint.config(
  { ignores: ['dist/**', 'dist-*/**', 'node_modules/**', 'coverage/**', 'data/**', 'clients/typescript/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Fastify handlers and hooks are async by contract; many return a value without awaiting anything.
      '@typescript-eslint/require-await': 'off',
      // Its fixer drops assertions that steer generic inference (Fastify's logger type), breaking the build.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A variable set once after the closures that read it are made (a server's own handle) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A caught value is rethrown as it came (it is an Error in practice, but typed unknown).
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver()],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
  },
  // Later entries replace the rule's options of earlier ones for the files they match: each entry lists every pattern it needs.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/store/**', ...ENGINE_CHOOSERS],
    rules: { 'no-restricted-imports': ['error', { patterns: [engineModules, engineNames] }] },
  },
  {
    files: CORE,
    ignores: ['src/store/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noFeatureImports, noRootImports, engineModules, engineNames] }],
    },
  },
  {
    files: ['src/store/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noFeatureImports, noRootImports] }] },
  },
  {
    files: ['src/jobs/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noFeatureImports, noRootImports, noJobsUpward, engineModules, engineNames] },
      ],
    },
  },
  {
    files: ['src/features/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFeature(1), engineModules, engineNames] }] },
  },
  {
    files: ['src/features/*/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFeature(2), engineModules, engineNames] }] },
  },
  {
    // Tests and benchmarks poke at JSON answers: `any` from JSON.parse is how they read them.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Tests hand the charger's sync-or-async outcomes to Promise.all on purpose, and pass methods as callbacks.
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  prettier,
);
