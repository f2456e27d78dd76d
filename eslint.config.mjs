import nextVitals from "eslint-config-next/core-web-vitals";
import prettier from "eslint-config-prettier/flat";
import tseslint from "typescript-eslint";

const config = [
  {
    ignores: [
      ".next/**",
      "dist/**",
      // A build in progress (scripts/build-server.mjs swaps it in whole).
      "dist.*/**",
      "node_modules/**",
      "lib/db/generated/**",
      "next-env.d.ts",
      "coverage/**",
      "playwright-report/**",
      "test-results/**",
    ],
  },
  ...nextVitals,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  // Imports run down: the composition root (lib/app.ts) → areas (lib/api) → the gateway, upstream
  // clients, usage and the database. Nothing below the areas may reach up into one, nor an area into the root.
  {
    files: [
      "lib/gateway/**",
      "lib/upstream/**",
      "lib/db/**",
      "lib/usage/**",
      "lib/jobs/**",
      "lib/errors.ts",
      "lib/config.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "(^|/)api/", message: "lib/api areas sit above this folder: pass what you need in instead" },
            {
              regex: "^(\\.\\./)+(app|instance|front-door|next-route)\\.ts$",
              message: "the composition root sits above this folder",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/api/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+(app|instance|front-door|next-route)\\.ts$",
              message: "areas are mounted by the composition root; they never import it",
            },
          ],
        },
      ],
    },
  },
  // Last: layout is Prettier's (`npm run format`), so no lint rule argues with it.
  prettier,
];

export default config;
