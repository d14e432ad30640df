import path from 'node:path';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import { noImportCycle } from './tools/eslint/no-import-cycle.mjs';

// Layer rules Nx tags cannot express (they see projects, not folders or test files).
const testingOnlyInTests = { name: '@platform/testing', message: 'libs/testing is for tests only.' };
const noExpress = { name: 'express', message: "Only libs/http and the apps' http/ layers use Express." };
const domainMustStayPure = ['express', 'kysely', 'pg', 'amqplib'].map((name) => ({
  name,
  message:
    'domain/ holds use cases and rules: SQL goes through db/ repositories, messages through events/, HTTP through http/.',
}));
const restrict = (paths) => ({ 'no-restricted-imports': ['error', { paths }] });

export default tseslint.config(
  // libs/client/src/generated: openapi-typescript's output (npm run client:generate).
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '**/*.js', '**/*.mjs', 'libs/client/src/generated/**'],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // Apps never import apps; libs never import apps; libs are imported through their index.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib'] },
            // What the widget's browser code reads its types from (contracts) stays free of Node-only libs.
            // (The widget's own src is held by no-restricted-imports below; its tests run in Node.)
            { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['platform:browser'] },
          ],
        },
      ],
    },
  },
  // Later entries win for the same rule, so each lists everything its files may not import.
  {
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts', 'tools/**/*.ts'],
    ignores: ['libs/testing/**', 'tools/test/**'],
    rules: restrict([testingOnlyInTests]),
  },
  {
    files: ['libs/*/src/**/*.ts'],
    ignores: ['libs/http/**', 'libs/testing/**'],
    rules: restrict([testingOnlyInTests, noExpress]),
  },
  // domain/ layers, also inside a feature folder (domains-svc's core: src/domains/domain/).
  { files: ['apps/*/src/**/domain/**/*.ts'], rules: restrict([testingOnlyInTests, ...domainMustStayPure]) },
  // The widget runs in visitors' browsers: no server code, no Node built-ins. Its wire shapes are
  // libs/contracts' zod types, imported with `import type` (erased: nothing of zod reaches the bundle).
  {
    files: ['apps/widget/src/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // widget-look (the look's rules), widget-embeds (the embeds' vendors), widget-texts (English and the language rules) and widget-regime (the regimes' regions), no zod, are the runtime files it shares.
              regex: '^@platform/contracts$',
              allowTypeImports: true,
              message:
                'The widget imports only types from @platform/contracts (`import type`), never its code (but @platform/contracts/widget-look, widget-embeds, widget-texts and widget-regime).',
            },
            {
              group: ['@platform/*', '!@platform/contracts', 'node:*', 'express', 'pg', 'kysely', 'amqplib', 'zod'],
              message: 'The widget is browser code: it may not import server libraries.',
            },
          ],
        },
      ],
    },
  },
  // The client runs in browsers (the portal) and Node: only fetch, Request and crypto, and the contracts' types.
  {
    files: ['libs/client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@platform/contracts'],
              allowTypeImports: true,
              message:
                'The client imports only types from @platform/contracts (`import type`): zod stays out of its bundle.',
            },
            {
              group: ['@platform/*', '!@platform/contracts', 'node:*', 'express', 'pg', 'kysely', 'amqplib', 'zod'],
              message: 'The client runs in browsers: it may not import Node built-ins or server libraries.',
            },
          ],
        },
      ],
    },
  },
  // The portal runs in partners' browsers: wire types and schemas come from @platform/contracts, calls go
  // through @platform/client, and src/ui/ stays presentational (no feature, API client or contract imports), as twenty's lint rules hold it.
  {
    files: ['apps/portal/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@platform/*',
                '!@platform/contracts',
                '!@platform/client',
                'node:*',
                'express',
                'pg',
                'kysely',
                'amqplib',
              ],
              message:
                'The portal is browser code: it may import @platform/contracts and @platform/client, never server libraries.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/portal/src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/api/**', '../auth/**', '@platform/*', 'node:*'],
              message: 'src/ui/ is presentational: it imports no feature, no API client and no contracts.',
            },
          ],
        },
      ],
    },
  },
  // No import cycles, type-only imports included, across libs too (@platform/* through the tsconfig paths).
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'libs/*/src/**/*.ts'],
    plugins: {
      local: { rules: { 'no-import-cycle': noImportCycle(path.resolve(import.meta.dirname, 'tsconfig.base.json')) } },
    },
    rules: { 'local/no-import-cycle': 'error' },
  },
  // A file does one job and a function fits on a screen: past these, split by job or into named steps.
  {
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  // A component's JSX reads as markup: a screen may run to 120 lines, and a file stays under 300 (after the
  // general limits, so it wins: in a flat config the last matching block applies).
  {
    files: ['apps/portal/src/**/*.tsx'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
);
