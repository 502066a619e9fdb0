import {
  type KeyPaymentStatusResponse,
  PAYMENT_WINDOW_SECONDS,
  type StartKeyPaymentResponse,
} from "@bundler/shared";
import { sql } from "drizzle-orm";
import { type Address, formatEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { accessKeyFrom } from "../../lib/crypto.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { keyPriceUsd, type Pricing, usdToWei } from "../../lib/pricing.ts";
import type { AuthService } from "../auth/auth.service.ts";
import type { PriceService } from "../price/price.service.ts";
import type { ReferralService } from "../referral/referral.service.ts";
import type { PaymentRepository } from "./payment.repository.ts";

/** Key payments one device may have open at once. */
export const OPEN_KEY_PAYMENTS_PER_DEVICE = 3;

const notFound = () => new NotFoundError("Payment not found");

/** How long the device that bought a key can ask for it again. */
const REISSUE_HOURS = 24;

/**
 * Buying an access key, on the launch fee's machinery: a fresh payment address whose key is
 * stored first, watched by the same payment watcher (detection by block, late, excess and
 * after-cancel refunds, the sweep to the treasury, exactly-once crediting, which also rewards
 * the referrer). The BNB amount is fixed when the payment starts, from the USD price at the
 * BNB/USD rate of that moment. Once paid, the key is created when the device that paid first
 * asks for it, in the transaction that marks it handed out; only its digest is stored, and the
 * same device gets it again for a day (it is derived from the payment).
 */
export class KeyPaymentService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly prices: PriceService,
    private readonly referrals: ReferralService,
    private readonly auth: AuthService,
    private readonly pricing: Pricing,
    private readonly windowSeconds: number = PAYMENT_WINDOW_SECONDS,
  ) {}

  /** `buyerKey`: the access key a logged-in buyer sent, so their own code is refused. */
  async start(
    deviceId: string,
    referralCode: string | undefined,
    buyerKey?: string,
  ): Promise<Omit<StartKeyPaymentResponse, "success">> {
    const buyer = referralCode ? await this.auth.authenticate(buyerKey) : null;
    const referrer = await this.referrals.referrerOf(referralCode, { deviceId, userId: buyer?.id });
    const chain = requireChain(this.chain);
    const rate = await this.prices.bnbUsd();
    const usd = keyPriceUsd(this.pricing, referrer !== null);
    const amount = usdToWei(usd, rate.price);
    const reward = referrer ? usdToWei(this.pricing.referralReward, rate.price) : null;
    const head = await chain.client.getBlockNumber();
    const expiresAt = new Date(Date.now() + this.windowSeconds * 1000);
    // The key and the payment commit together, before the address is shown.
    const payment = await this.vault.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`key-payment:${deviceId}`}))`);
      if ((await this.payments.countOpenForDevice(deviceId, tx)) >= OPEN_KEY_PAYMENTS_PER_DEVICE)
        throw new ConflictError(
          `This device already has ${OPEN_KEY_PAYMENTS_PER_DEVICE} key payments open, the most allowed: pay or cancel one of them, then try again`,
        );
      const [stored] = await this.vault.store(
        [{ privateKey: generatePrivateKey(), purpose: "payment" }],
        { ownerId: null },
        tx,
      );
      if (!stored) throw new Error("payment key not stored");
      return this.payments.insert(
        {
          kind: "access_key",
          deviceId,
          address: stored.address,
          amount: amount.toString(),
          expiresAt,
          scanFromBlock: head,
          referrerId: referrer?.userId ?? null,
          referralReward: reward?.toString() ?? null,
          usdAmount: usd,
          bnbUsdRate: String(rate.price),
        },
        tx,
      );
    });
    const priceUsd = Number(this.pricing.price);
    return {
      paymentId: payment.id,
      paymentAddress: payment.address as Address,
      paymentAmount: formatEther(amount),
      expiresAt: expiresAt.toISOString(),
      priceUsd,
      discountUsd: referrer ? Number(this.pricing.referralDiscount) : 0,
      amountUsd: Number(usd),
      bnbUsdRate: rate.price,
      rateSource: rate.source,
      referralCode: referrer?.code ?? null,
    };
  }

  /**
   * The purchase dialog's poll. The first call after the payment is credited creates the key
   * (in the transaction that marks it handed out) and answers it. The key is derived from the
   * payment (`purchasedKey`), never stored in plaintext, so that the device that paid gets it
   * again for `REISSUE_HOURS` after: an answer lost on the network, or a closed tab, does not
   * lose a key that was paid for.
   */
  async status(
    paymentId: string,
    deviceId: string,
  ): Promise<Omit<KeyPaymentStatusResponse, "success">> {
    const payment = await this.payments.keyPaymentOf(paymentId, deviceId);
    if (!payment) throw notFound();
    let key: string | undefined;
    if (payment.status === "paid" && !payment.keyIssuedAt) {
      key = await this.vault.transaction(async (tx) => {
        const won = await this.payments.claimKeyIssue(tx, payment.id);
        if (!won) return undefined;
        const issued = await this.auth.createPurchasedKey(
          tx,
          { deviceId, referredBy: won.referrerId },
          this.purchasedKey(payment.id),
        );
        await this.payments.setOwner(tx, won.id, issued.userId);
        return issued.key;
      });
    }
    const issuedAt = payment.keyIssuedAt?.getTime();
    if (
      !key &&
      issuedAt !== undefined &&
      payment.ownerId &&
      Date.now() - issuedAt < REISSUE_HOURS * 3_600_000
    ) {
      const again = this.purchasedKey(payment.id);
      // Keys issued before they were derived are not known again: none is answered.
      if (await this.auth.isKeyOf(again, payment.ownerId)) key = again;
    }
    // Once paid, what was credited (the address is swept afterwards); while open, the balance
    // the payment watcher recorded on its last block.
    const received = BigInt(payment.status === "paid" ? payment.amount : payment.lastBalance);
    return {
      status: payment.status,
      isPaid: payment.status === "paid",
      ...(key ? { key } : {}),
      keyIssued: key !== undefined || payment.keyIssuedAt !== null,
      received: formatEther(received),
      expiresAt: payment.expiresAt.toISOString(),
    };
  }

  /** The access key a key payment buys: the same every time it is asked. */
  private purchasedKey(paymentId: string): string {
    return accessKeyFrom(this.vault.derive(`access-key:${paymentId}`));
  }

  async cancel(paymentId: string, deviceId: string): Promise<string> {
    const payment = await this.payments.keyPaymentOf(paymentId, deviceId);
    if (!payment) throw notFound();
    if (payment.status !== "open" || !(await this.payments.close(payment.id, "cancelled")))
      throw new ConflictError(
        payment.status === "paid"
          ? "This payment was already received"
          : "This payment was already received or closed",
      );
    return "Payment cancelled; anything sent to the payment address will be refunded";
  }
}
