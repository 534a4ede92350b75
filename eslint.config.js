// One lint for the whole repository: typescript-eslint's recommended rules, and the import boundaries that keep the
// layers one-way (docs/architecture.md): web features never import each other, shared/ never imports upward, no cycles.
import { readdirSync, readFileSync } from 'node:fs';
import { URL } from 'node:url';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// shared/ in layers (docs/architecture.md#shared-in-layers): each layer imports only the layers listed for it in
// shared/layers.json, which the import-graph check (.dependency-cruiser.cjs) reads too.
const sharedLayers = JSON.parse(readFileSync(new URL('./shared/layers.json', import.meta.url), 'utf8'));

// Every folder of web/src/features is a feature: a new one is fenced off from the others without editing this file.
const features = readdirSync(new URL('./web/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: ['node_modules/', 'cdk.out/', '.data/', 'web/dist/', 'cli/dist/', 'test-output/', 'coverage/', '**/*.cjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      // Leaving a folder goes through the package's "#…" aliases, never ../ chains.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*'], message: 'Import through a #alias (package.json "imports").' }] },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './shared',
              from: ['./functions', './infra', './web', './cli', './tests', './bench'],
              message: 'shared/ imports nothing from the layers above it.',
            },
            {
              target: './functions',
              from: ['./infra', './web', './cli', './tests', './bench'],
              message: 'functions/ depends on shared/ only.',
            },
            {
              target: './web',
              from: ['./functions', './infra', './cli', './shared/definitions/table'],
              message: 'The site uses shared/ domain code only.',
            },
            { target: './cli', from: ['./web', './tests', './bench'] },
            ...Object.entries(sharedLayers).map(([layer, below]) => ({
              target: `./shared/${layer}`,
              from: './shared',
              except: [`./${layer}`, ...below.map((name) => `./${name}`)],
              message: `shared/${layer} imports only ${below.length ? below.join(', ') : 'itself'} (docs/architecture.md#shared-in-layers).`,
            })),
            ...features.map((feature) => ({
              target: `./web/src/features/${feature}`,
              from: './web/src/features',
              except: [`./${feature}`],
              message: 'Features never import each other: compose them in web/src/app.',
            })),
            { target: './web/src/features', from: './web/src/app', message: 'Features never import the app layer.' },
          ],
        },
      ],
    },
  },
  {
    // The vocabulary is plain constants and types: schemas are built on it, never the other way round.
    files: ['shared/vocabulary/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', message: 'The vocabulary holds plain constants and types; schemas live in shared/schemas.' },
          ],
          patterns: [{ group: ['../*'], message: 'Import through a #alias (package.json "imports").' }],
        },
      ],
    },
  },
  {
    files: ['web/**/*.tsx', 'web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Tests read untyped documents (CloudFormation templates, OpenAPI, JSON bodies) and assert on their shape.
    files: ['tests/**/*.ts', 'tests/**/*.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['cli/*.mjs'],
    languageOptions: { globals: { process: 'readonly' } },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
