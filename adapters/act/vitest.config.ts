import { defineConfig } from "vitest/config";

// One database per run (test/run-act-adapter.sh), so the files run one after
// the other: each starts from drop() + seed().
export default defineConfig({
  test: {
    include: ["test/**/*.spec.ts"],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { NODE_ENV: "test" },
  },
});
