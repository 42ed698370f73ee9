// Build step (npm run build / prepare): validates the shipped OpenAPI documents in full (no warning
// allowed) and records
// their digests in dist/validated-specs.json, so `kennel serve` can skip re-validating them.
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const { loadDocument, documentDigest, VALIDATED_SPECS } = await import(new URL('dist/openapi/load.js', root).href);
rmSync(VALIDATED_SPECS, { force: true });
const digests = [];
for (const file of ['spec/petstore.yaml', 'spec/domains.yaml', 'spec/admin.yaml']) {
  const spec = await loadDocument(fileURLToPath(new URL(file, root)));
  // A shipped document is held to the meta-schema: what users get away with as a warning fails the build.
  if (spec.warnings.length > 0) {
    for (const warning of spec.warnings) console.error(`${warning.location}: ${warning.message}`);
    process.exit(1);
  }
  digests.push(documentDigest(spec.document));
}
writeFileSync(VALIDATED_SPECS, `${JSON.stringify(digests, null, 2)}\n`);
