import { sql, type Kysely } from '@platform/db';

/**
 * 2026_12_03_0002_text_overrides: the widget's language when the visitor's is none it speaks
 * (default_language, English for every property so far) and the property's own wording of the
 * widget's texts per language (text_overrides: { [language]: { [key]: text } }, validated by
 * libs/contracts' textOverridesSchema before it is written).
 */
export async function addTextOverrides(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE properties
      ADD COLUMN default_language text NOT NULL DEFAULT 'en',
      ADD COLUMN text_overrides jsonb NOT NULL DEFAULT '{}'::jsonb`.execute(db);
}
