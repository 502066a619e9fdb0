import { randomUUID } from "node:crypto";
import type { AdminNewsItem, NewsInput } from "@bundler/shared";
import type { Tx } from "../../db/client.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { NewsFields, NewsRepository } from "./news.repository.ts";

/** Writes the audit row of a change inside the change's own transaction. */
export type NewsAudit = (
  tx: Tx,
  change: { before: AdminNewsItem | null; after: AdminNewsItem },
) => Promise<void>;

const fieldsOf = (input: NewsInput): NewsFields => ({
  content: input.content.trim(),
  label: input.label.trim(),
  labelColor: input.labelColor.trim().toLowerCase(),
});

/**
 * The banner's news as admins manage it: publish, edit, hide and show again. Each change and
 * its audit row are one transaction: a change that cannot be audited is not made.
 */
export class NewsService {
  constructor(private readonly repository: NewsRepository) {}

  all(): Promise<AdminNewsItem[]> {
    return this.repository.listAll();
  }

  publish(input: NewsInput, audit: NewsAudit): Promise<AdminNewsItem> {
    return this.repository.transaction(async (tx) => {
      const after = await this.repository.insert(tx, randomUUID(), fieldsOf(input));
      await audit(tx, { before: null, after });
      return after;
    });
  }

  edit(id: string, input: NewsInput, audit: NewsAudit): Promise<AdminNewsItem> {
    return this.change(id, fieldsOf(input), audit);
  }

  setActive(id: string, active: boolean, audit: NewsAudit): Promise<AdminNewsItem> {
    return this.change(id, { active }, audit);
  }

  private change(
    id: string,
    values: Partial<NewsFields> & { active?: boolean },
    audit: NewsAudit,
  ): Promise<AdminNewsItem> {
    return this.repository.transaction(async (tx) => {
      const before = await this.repository.lock(tx, id);
      if (!before) throw new NotFoundError("News item not found");
      const after = await this.repository.update(tx, id, values);
      await audit(tx, { before, after });
      return after;
    });
  }
}
