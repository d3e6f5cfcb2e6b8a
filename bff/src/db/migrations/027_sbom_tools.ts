import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The tools an uploaded SBOM names in its metadata (the scanner that made it, say), kept with
 * its report so that a CycloneDX export merging SBOMs names them beside Gatehouse, as the
 * platform's merged SBOMs do. JSON (security/sbom.ts SbomTool[]); null for SBOMs uploaded before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('security_reports').addColumn('sbom_tools', 'text').execute();
}
