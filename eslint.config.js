// ESLint flat config. Formatting is Prettier's job: nothing here is a formatting rule.
// The important part is LAYERING: which folder may import what, enforced with no-restricted-imports.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ---- layering -------------------------------------------------------------------------------
// ESLint does not merge the options of one rule across config objects (the last match wins), so each
// folder gets exactly one no-restricted-imports entry built from the pieces below.

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const nodeBuiltinNames = [
  ...new Set(builtinModules.filter((m) => !m.startsWith('node:')).map((m) => m.split('/')[0])),
];

const NODE = {
  regex: `^(node:|(${nodeBuiltinNames.map(escape).join('|')})(/|$))`,
  message:
    'Node built-ins are not allowed in src/renderer, src/shared or src/preload: that code runs in a browser or sandbox' +
    ' (the renderer reaches Node only through the preload bridge).',
};
const NATIVE = {
  regex: '^(better-sqlite3|@napi-rs/keyring|ws|undici)(/|$)',
  message:
    'Native/Node-only modules (better-sqlite3, @napi-rs/keyring, ws, undici) belong to src/core or src/main.',
};
const ELECTRON = {
  // electron-updater and electron-log's main side import electron themselves
  regex: '^electron(-updater|-log)?(/|$)',
  message:
    "'electron' may be imported only in src/main and src/preload (so may electron-updater and electron-log, which import it).",
};
/** A relative (or src/-rooted) import that reaches into one of the given top-level src folders. */
const LAYER = (from, folders) => ({
  regex: `^(\\.{1,2}/(.*/)?|(.*/)?src/)(${folders.join('|')})(/|$)`,
  message:
    `${from} must not import src/${folders.length > 1 ? `{${folders.join(',')}}` : folders[0]}` +
    ' (layering: shared code lives in src/shared; folders named core/main/demo/cli/renderer/preload are reserved).',
});

const layering = {
  'src/renderer/**': [
    ELECTRON,
    NODE,
    NATIVE,
    LAYER('src/renderer', ['core', 'main', 'preload', 'demo', 'cli', 'web-host']),
  ],
  'src/shared/**': [
    ELECTRON,
    NODE,
    NATIVE,
    LAYER('src/shared', ['core', 'main', 'preload', 'renderer', 'demo', 'cli', 'web-host']),
  ],
  'src/core/**': [ELECTRON, LAYER('src/core', ['demo', 'main', 'preload', 'renderer', 'cli', 'web-host'])],
  'src/demo/**': [ELECTRON, LAYER('src/demo', ['core', 'main', 'preload', 'renderer', 'cli', 'web-host'])],
  // sandboxed preload: a single bundle that can require nothing but electron
  'src/preload/**': [NODE, NATIVE, LAYER('src/preload', ['core', 'main', 'renderer', 'demo', 'cli', 'web-host'])],
  'src/main/**': [LAYER('src/main', ['renderer', 'preload', 'web-host'])],
  'src/cli/**': [ELECTRON, LAYER('src/cli', ['main', 'preload', 'renderer', 'web-host'])],
  // the browser test host: Node, a composition root like src/main (core, demo, shared), never electron
  'src/web-host/**': [ELECTRON, LAYER('src/web-host', ['main', 'preload', 'renderer', 'cli'])],
  // ...except its bridge script, which runs in the page like the preload: shared only, no Node
  'src/web-host/browser/**': [
    ELECTRON,
    NODE,
    NATIVE,
    LAYER('src/web-host/browser', ['core', 'main', 'preload', 'renderer', 'demo', 'cli']),
  ],
};

/**
 * no-restricted-imports sees only static imports and exports: the same patterns for `import('…')` and
 * `require('…')` with a literal specifier, so a dynamic import cannot walk around the layering.
 */
const sourceOf = (node) =>
  node.type === 'Literal' && typeof node.value === 'string'
    ? node.value
    : node.type === 'TemplateLiteral' && node.expressions.length === 0
      ? node.quasis[0].value.cooked
      : null;
const layeringPlugin = {
  rules: {
    'no-restricted-dynamic-imports': {
      meta: { type: 'problem', schema: [{ type: 'array' }] },
      create(context) {
        const patterns = context.options[0].map((p) => ({ ...p, re: new RegExp(p.regex) }));
        const check = (node, source) => {
          const specifier = source && sourceOf(source);
          if (specifier === null || specifier === undefined) return;
          const hit = patterns.find((p) => p.re.test(specifier));
          if (hit)
            context.report({
              node,
              message: `'${specifier}' import is restricted from being used by a pattern. ${hit.message}`,
            });
        };
        return {
          ImportExpression: (node) => check(node, node.source),
          CallExpression: (node) => {
            if (node.callee.type === 'Identifier' && node.callee.name === 'require')
              check(node, node.arguments[0]);
          },
        };
      },
    },
  },
};

const layeringConfigs = Object.entries(layering).map(([glob, patterns]) => ({
  name: `skindesk/layering ${glob}`,
  files: [glob],
  plugins: { skindesk: layeringPlugin },
  rules: {
    'no-restricted-imports': ['error', { patterns }],
    'skindesk/no-restricted-dynamic-imports': ['error', patterns],
  },
}));

// ---- config ---------------------------------------------------------------------------------

export default defineConfig([
  {
    name: 'skindesk/ignores',
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      '.tools/**',
      'test-results/**',
      'playwright-report/**',
      'test/fixtures/lint/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'skindesk/base',
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    name: 'skindesk/commonjs',
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    ...reactHooks.configs.flat.recommended,
    name: 'skindesk/renderer',
    files: ['src/renderer/**/*.{ts,tsx}', 'test/unit/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    name: 'skindesk/web-host-browser',
    files: ['src/web-host/browser/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...layeringConfigs,
]);
