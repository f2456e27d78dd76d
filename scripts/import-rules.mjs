// `npm run lint` runs this after ESLint: it fails when modules import each other, directly or
// through others, and when one area of the API (lib/api/<area>) imports another's modules. Type-only
// and dynamic imports count too (a type cycle still ties modules together), so the shared part has to
// move into a leaf, and what two areas share moves below them into lib/. Layering (nothing below the
// areas imports one) is ESLint's no-restricted-imports in eslint.config.mjs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" })
  .split("\n")
  .filter((f) => SOURCE.test(f) && !f.startsWith("lib/db/generated/") && fs.existsSync(f));
const known = new Set(files);

/** The repository file a specifier names, for relative and "@/" specifiers; packages are not ours. */
function resolve(from, specifier) {
  let base;
  if (specifier.startsWith("./") || specifier.startsWith("../")) base = path.join(path.dirname(from), specifier);
  else if (specifier.startsWith("@/")) base = specifier.slice(2);
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

const graph = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  graph.set(file, [...new Set(importedFiles.map((i) => resolve(file, i.fileName)).filter(Boolean))]);
}

// Tarjan's strongly connected components: every component of more than one module is a cycle.
let index = 0;
const indexOf = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(node) {
  indexOf.set(node, index);
  low.set(node, index++);
  stack.push(node);
  onStack.add(node);
  for (const next of graph.get(node) ?? []) {
    if (!indexOf.has(next)) {
      visit(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indexOf.get(next)));
  }
  if (low.get(node) === indexOf.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  }
}
for (const file of files) if (!indexOf.has(file)) visit(file);

// An area's modules (tests included) import only their own area's and what sits below the areas.
const areaOf = (file) => /^lib\/api\/([^/]+)\//.exec(file)?.[1];
const crossings = [];
for (const [file, imports] of graph) {
  const area = areaOf(file);
  if (!area) continue;
  for (const target of imports) {
    const other = areaOf(target);
    if (other && other !== area) crossings.push(`${file} → ${target}`);
  }
}

if (cycles.length) {
  console.error(`import cycles (${cycles.length}):`);
  for (const cycle of cycles) console.error(`  ${cycle.join(" ⇄ ")}`);
}
if (crossings.length) {
  console.error(`imports between areas (${crossings.length}): move what two areas share into lib/`);
  for (const crossing of crossings) console.error(`  ${crossing}`);
}
if (cycles.length || crossings.length) process.exit(1);
console.log(`no import cycles and no imports between areas (${files.length} modules)`);
