import type { AdminClaim, AdminNewsItem, AuditAction, NewsInput, Role } from "@bundler/shared";
import type { Tx } from "../../db/client.ts";
import { ConflictError, ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { AuthService } from "../auth/auth.service.ts";
import type { NewsAudit, NewsService } from "../meta/news.service.ts";
import type { ClaimDecisions } from "../referral/claim-decisions.ts";
import { presentAdminClaim } from "../referral/claim-presenter.ts";
import type { AdminRepository } from "./admin.repository.ts";
import type { AuditRecord, AuditRepository } from "./audit.repository.ts";

const userNotFound = () => new NotFoundError("User not found");

/**
 * Every privileged action, each in one database transaction with its audit row: who (the
 * actor's id, key prefix and role), what, on which object, why. The row is written before the
 * action answers; if anything after it fails, both roll back (the `admin.audited` failpoint
 * shows it). Role and activation changes take effect everywhere within a second (the `users`
 * trigger tells every process to forget the key).
 */
export class AdminActions {
  constructor(
    private readonly repository: AdminRepository,
    private readonly audit: AuditRepository,
    private readonly auth: AuthService,
    private readonly vault: KeyVault,
    private readonly claims: ClaimDecisions,
    private readonly news: NewsService,
  ) {}

  private async record(tx: Tx, actorId: string, entry: Omit<AuditRecord, "actor">): Promise<void> {
    const actor = await this.audit.actor(tx, actorId);
    await this.audit.record(tx, { actor, ...entry });
    await failpoint("admin.audited");
  }

  /** Superadmins only (the route says so); the last active superadmin keeps the role. */
  async setRole(actorId: string, id: string, role: Role): Promise<void> {
    const keyHash = await this.repository.transaction(async (tx) => {
      await this.repository.lockRoles(tx);
      const target = await this.repository.lockUser(tx, id);
      if (!target) throw userNotFound();
      if (
        target.role === "superadmin" &&
        role !== "superadmin" &&
        target.isActive &&
        (await this.repository.activeSuperadminsOtherThan(tx, id)) === 0
      )
        throw new ConflictError(
          "The last superadmin cannot be demoted: make another superadmin first",
        );
      const digest = await this.auth.changeInTransaction(tx, id, { role });
      await this.record(tx, actorId, {
        action: "role_change",
        target: { type: "user", id },
        details: { from: target.role, to: role },
      });
      return digest;
    });
    if (keyHash) this.auth.forget(keyHash);
  }

  /**
   * Admins may turn users' keys on and off; an admin's or a superadmin's only a superadmin.
   * Nobody turns off their own key, nor the last active superadmin's.
   */
  async setActive(actor: { id: string; role: Role }, id: string, isActive: boolean) {
    const keyHash = await this.repository.transaction(async (tx) => {
      await this.repository.lockRoles(tx);
      const target = await this.repository.lockUser(tx, id);
      if (!target) throw userNotFound();
      if (target.role !== "user" && actor.role !== "superadmin")
        throw new ForbiddenError("Only a superadmin can turn an admin's key on or off");
      if (!isActive && id === actor.id)
        throw new ConflictError("You cannot deactivate your own key");
      if (
        !isActive &&
        target.role === "superadmin" &&
        (await this.repository.activeSuperadminsOtherThan(tx, id)) === 0
      )
        throw new ConflictError("The last active superadmin cannot be deactivated");
      const digest = await this.auth.changeInTransaction(tx, id, { isActive });
      await this.record(tx, actor.id, {
        action: "active_change",
        target: { type: "user", id },
        details: { from: target.isActive, to: isActive },
      });
      return digest;
    });
    if (keyHash) this.auth.forget(keyHash);
  }

  /** A draft's payment address key, answered only once its view (with the reason) is logged. */
  async paymentKey(actorId: string, draftId: string, reason: string) {
    return this.repository.transaction(async (tx) => {
      if (!(await this.repository.draftExists(draftId, tx)))
        throw new NotFoundError("Draft not found");
      const address = await this.repository.paymentAddressOf(draftId, tx);
      if (!address) throw new NotFoundError("This draft has no payment address");
      const privateKey = await this.vault.find(address, "payment", tx);
      if (!privateKey) throw new NotFoundError("No key is stored for this draft's payment address");
      await this.record(tx, actorId, {
        action: "payment_key_view",
        target: { type: "draft", id: draftId },
        reason,
        details: { paymentAddress: address },
      });
      return { address, privateKey };
    });
  }

  async completeClaim(actorId: string, claimId: string): Promise<AdminClaim> {
    const claim = await this.claims.complete(claimId, actorId, (tx, row) =>
      this.record(tx, actorId, {
        action: "claim_complete",
        target: { type: "claim", id: claimId },
        details: {
          amountWei: row.amount,
          receivingAddress: row.receivingAddress,
          attempt: row.payoutAttempts,
          userId: row.userId,
        },
      }),
    );
    return presentAdminClaim(claim);
  }

  async rejectClaim(actorId: string, claimId: string, reason: string | null): Promise<AdminClaim> {
    const claim = await this.claims.reject(claimId, actorId, reason, (tx, row) =>
      this.record(tx, actorId, {
        action: "claim_reject",
        target: { type: "claim", id: claimId },
        reason,
        details: { amountWei: row.amount, userId: row.userId },
      }),
    );
    return presentAdminClaim(claim);
  }

  /** Publishes a news item to the banner. */
  publishNews(actorId: string, input: NewsInput): Promise<AdminNewsItem> {
    return this.news.publish(
      input,
      this.newsAudit(actorId, () => "news_publish"),
    );
  }

  /** Changes a news item's text, label or color. */
  editNews(actorId: string, id: string, input: NewsInput): Promise<AdminNewsItem> {
    return this.news.edit(
      id,
      input,
      this.newsAudit(actorId, () => "news_edit"),
    );
  }

  /** Hides a news item from the banner, or shows it again. */
  setNewsActive(actorId: string, id: string, active: boolean): Promise<AdminNewsItem> {
    return this.news.setActive(
      id,
      active,
      this.newsAudit(actorId, () => (active ? "news_show" : "news_hide")),
    );
  }

  /** The audit row of a news change: what the item said before and after. */
  private newsAudit(actorId: string, action: () => AuditAction): NewsAudit {
    const shown = (item: AdminNewsItem | null) =>
      item && {
        content: item.content,
        label: item.label,
        labelColor: item.labelColor,
        active: item.active,
      };
    return (tx, { before, after }) =>
      this.record(tx, actorId, {
        action: action(),
        target: { type: "news", id: after.id },
        details: before ? { from: shown(before), to: shown(after) } : { to: shown(after) },
      });
  }
}
