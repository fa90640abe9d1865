/**
 * Which candidates become options, walking them in selection order: one option per document (ES's
 * TopDocumentsCollector groups a document's matching inputs under its best one) and, with
 * `skip_duplicates`, one per text (a text counts once an option took it). Shards and the
 * coordinator apply the same rule, so options do not depend on how documents are sharded.
 */
export class OptionPicker {
  private readonly docs = new Set<number | string>();
  private readonly texts: Set<string> | null;
  count = 0;

  constructor(readonly size: number, skipDuplicates: boolean) {
    this.texts = skipDuplicates ? new Set() : null;
  }

  get full(): boolean {
    return this.count >= this.size;
  }

  /** Takes the candidate if the rule allows; `doc` identifies its document among all candidates walked. */
  take(doc: number | string, text: string): boolean {
    if (this.docs.has(doc) || (this.texts !== null && this.texts.has(text))) return false;
    this.docs.add(doc);
    this.texts?.add(text);
    this.count++;
    return true;
  }
}
