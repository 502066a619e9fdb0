import { type Address, type Hex, parseEther } from "viem";
import type { Db, ReleaseLock } from "./db/client.ts";
import type { ChainContext } from "./lib/chain-context.ts";
import type { JobEngine } from "./lib/jobs.ts";
import { KeyVault } from "./lib/key-vault.ts";
import { DEFAULT_PRICING, type Pricing } from "./lib/pricing.ts";
import type { RefundRoute } from "./lib/refund-route.ts";
import { AdminRepository } from "./modules/admin/admin.repository.ts";
import { AdminService } from "./modules/admin/admin.service.ts";
import { AdminActions } from "./modules/admin/admin-actions.ts";
import { AuditRepository } from "./modules/admin/audit.repository.ts";
import type { AuthService } from "./modules/auth/auth.service.ts";
import { AutosellEngine } from "./modules/autosell/autosell.engine.ts";
import { workAutosellJobs } from "./modules/autosell/autosell.jobs.ts";
import { AutosellRepository } from "./modules/autosell/autosell.repository.ts";
import { AutosellService } from "./modules/autosell/autosell.service.ts";
import { AutosellPassRepository } from "./modules/autosell/autosell-pass.repository.ts";
import { AutosellReader } from "./modules/autosell/autosell-readings.ts";
import { BuilderLandings } from "./modules/builders/builder-landings.ts";
import { BuilderStatuses } from "./modules/builders/builder-statuses.ts";
import { workBuilderJobs } from "./modules/builders/builders.jobs.ts";
import { BuildersRepository } from "./modules/builders/builders.repository.ts";
import { BuilderSends } from "./modules/builders/builders.service.ts";
import { BumperEngine } from "./modules/bumper/bumper.engine.ts";
import { workBumperJobs } from "./modules/bumper/bumper.jobs.ts";
import { BumperRepository } from "./modules/bumper/bumper.repository.ts";
import { BumperService } from "./modules/bumper/bumper.service.ts";
import { BundleEmpties } from "./modules/bundles/bundle-empties.ts";
import { BundleSells } from "./modules/bundles/bundle-sells.ts";
import { BundlesRepository } from "./modules/bundles/bundles.repository.ts";
import { BundlesService } from "./modules/bundles/bundles.service.ts";
import { WalletManager } from "./modules/bundles/wallet-manager.ts";
import { WalletTxs } from "./modules/bundles/wallet-txs.ts";
import { DisperseEngine } from "./modules/disperse/disperse.engine.ts";
import { workDisperseJobs } from "./modules/disperse/disperse.jobs.ts";
import { DisperseRepository } from "./modules/disperse/disperse.repository.ts";
import { DisperseService } from "./modules/disperse/disperse.service.ts";
import { DraftsRepository } from "./modules/drafts/drafts.repository.ts";
import { DraftsService } from "./modules/drafts/drafts.service.ts";
import { PaymentService } from "./modules/drafts/payment.service.ts";
import { PaymentRefunds } from "./modules/drafts/payment-refunds.ts";
import { workLaunchJobs } from "./modules/launch/launch.jobs.ts";
import { LaunchRepository } from "./modules/launch/launch.repository.ts";
import { LaunchService } from "./modules/launch/launch.service.ts";
import { LaunchPlanService } from "./modules/launch/launch-plan.service.ts";
import { NewsRepository } from "./modules/meta/news.repository.ts";
import { NewsService } from "./modules/meta/news.service.ts";
import { KeyPaymentService } from "./modules/payments/key-payment.service.ts";
import { workPaymentJobs } from "./modules/payments/payment.jobs.ts";
import { PaymentRepository } from "./modules/payments/payment.repository.ts";
import { PaymentWatcher } from "./modules/payments/payment.watcher.ts";
import { workPnlJobs } from "./modules/pnl/pnl.jobs.ts";
import { PnlRepository } from "./modules/pnl/pnl.repository.ts";
import { PnlService } from "./modules/pnl/pnl.service.ts";
import { ViewedBundles } from "./modules/pnl/pnl-exit.ts";
import { PnlLedger } from "./modules/pnl/pnl-ledger.ts";
import { PreflightService } from "./modules/preflight/preflight.service.ts";
import { PriceService } from "./modules/price/price.service.ts";
import { ClaimDecisions } from "./modules/referral/claim-decisions.ts";
import { workReferralJobs } from "./modules/referral/referral.jobs.ts";
import { ReferralRepository } from "./modules/referral/referral.repository.ts";
import { ReferralService } from "./modules/referral/referral.service.ts";
import { ReferralPayouts } from "./modules/referral/referral-payouts.ts";
import { workTransactionJobs } from "./modules/transactions/transactions.jobs.ts";
import { TransactionsRepository } from "./modules/transactions/transactions.repository.ts";
import { TxManager, type TxManagerOptions } from "./modules/transactions/tx-manager.ts";
import { WalletsService } from "./modules/wallets/wallets.service.ts";

export interface BumperOptions {
  /** How long one bumper minute lasts, ms (default 60,000). */
  minuteMs?: number;
  /** What each bump's bundle pays its builder, wei (default 0.0005 BNB). */
  tip?: bigint;
}

export interface ServiceOptions {
  db: Db;
  /** The job engine every background job goes through. */
  jobs: JobEngine;
  /** The database's lock for work that must run in one place at a time. */
  tryLock: (key: string) => Promise<ReleaseLock | null>;
  masterKey: Buffer;
  chain: ChainContext | undefined;
  /** The launch fee, wei. */
  launchFee: bigint;
  paymentWindowSeconds?: number | undefined;
  dispersalWindowSeconds?: number | undefined;
  treasury: Address;
  /** The treasury's key: pays referral claims (without it, completing one is refused). */
  treasuryKey?: Hex | undefined;
  /** Key price, referral discount and reward, USD. */
  pricing?: Pricing | undefined;
  /** BNB_USD_PRICE where the profile has no price feed. */
  bnbUsdPrice?: number | undefined;
  /** Key checks; key purchases create keys through it. */
  auth: AuthService;
  transactions?: TxManagerOptions | undefined;
  bumper?: BumperOptions | undefined;
  /** What each sell bundle pays its builder, wei (default 0.0005 BNB). */
  sellTip?: bigint | undefined;
  /** LOGS_MAX_BLOCK_RANGE: the most blocks one `eth_getLogs` spans (default 5,000). */
  logsMaxBlockRange?: number | undefined;
  /** A line for a user's terminal (`launch_status`) or dispersal dialog (`dispersal_status`). */
  emit: (userId: string, kind: "launch_status" | "dispersal_status", message: string) => void;
  log: (message: string) => void;
}

/**
 * Every domain service and background worker, wired once. A process builds one set; a test
 * that simulates a restart builds a second set on the same database (as a new process would).
 */
export const createServices = (options: ServiceOptions) => {
  const { db, chain, log } = options;
  const vault = new KeyVault(db, options.masterKey);
  const txm = chain
    ? new TxManager(new TransactionsRepository(db), chain, { log, ...options.transactions })
    : undefined;
  const wallets = new WalletsService(vault, chain);
  const builderRows = new BuildersRepository(db);
  const builderSends = new BuilderSends(builderRows, chain, log);
  const builderLandings = chain ? new BuilderLandings(builderRows, chain) : undefined;
  const builderStatuses = chain ? new BuilderStatuses(builderRows, chain, log) : undefined;
  const draftRows = new DraftsRepository(db);
  const paymentRows = new PaymentRepository(db);
  const drafts = new DraftsService(draftRows, vault, chain, new PaymentRefunds(paymentRows, txm));
  const payments = new PaymentService(
    drafts,
    draftRows,
    paymentRows,
    vault,
    chain,
    options.launchFee,
    options.paymentWindowSeconds,
  );
  const plans = new LaunchPlanService(drafts, chain, options.launchFee);
  const launches = new LaunchService(
    new LaunchRepository(db),
    drafts,
    vault,
    chain,
    (userId, message) => options.emit(userId, "launch_status", message),
    { jobs: options.jobs, tryLock: options.tryLock, log, sends: builderSends },
    txm,
  );
  const disperseRows = new DisperseRepository(db);
  const dispersals = new DisperseService(
    disperseRows,
    vault,
    chain,
    txm,
    options.dispersalWindowSeconds,
  );
  const refundRoute = platformRefundRoute(vault, dispersals);
  const pricing = options.pricing ?? DEFAULT_PRICING;
  const prices = new PriceService(chain, options.bnbUsdPrice);
  const referralRows = new ReferralRepository(db);
  const referrals = new ReferralService(referralRows, pricing);
  const payouts = new ReferralPayouts(referralRows, chain, txm, options.treasuryKey, log);
  const keyPayments = new KeyPaymentService(
    paymentRows,
    vault,
    chain,
    prices,
    referrals,
    options.auth,
    pricing,
    options.paymentWindowSeconds,
  );
  const adminRows = new AdminRepository(db);
  const audit = new AuditRepository(db);
  const news = new NewsService(new NewsRepository(db));
  const admin = new AdminService(adminRows, audit, referrals, news);
  const adminActions = new AdminActions(
    adminRows,
    audit,
    options.auth,
    vault,
    new ClaimDecisions(referralRows, payouts),
    news,
  );
  const paymentWatcher =
    chain && txm
      ? new PaymentWatcher(paymentRows, vault, chain, txm, {
          treasury: options.treasury,
          log,
          refundRoute,
          credited: referrals.credited,
        })
      : undefined;
  const disperseEngine =
    chain && txm
      ? new DisperseEngine(disperseRows, vault, chain, txm, {
          emit: (userId, message) => options.emit(userId, "dispersal_status", message),
          log,
          refundRoute,
        })
      : undefined;
  const bundleRows = new BundlesRepository(db);
  const walletTxs = new WalletTxs(vault, chain, txm, builderSends);
  const sells = new BundleSells(walletTxs, {
    ...(options.sellTip !== undefined ? { tip: options.sellTip } : {}),
  });
  const empties = new BundleEmpties(walletTxs);
  const walletManager = new WalletManager(
    bundleRows,
    new BundlesService(bundleRows, chain, log),
    sells,
    empties,
  );
  const pnlRows = new PnlRepository(db);
  const viewedPnl = new ViewedBundles();
  const pnlLedger = chain ? new PnlLedger(pnlRows, chain, log, viewedPnl) : undefined;
  const pnl = new PnlService(bundleRows, pnlRows, chain, prices, viewedPnl);
  const bumperRows = new BumperRepository(db);
  const bumperEngine =
    chain && txm
      ? new BumperEngine(bumperRows, vault, chain, txm, {
          minuteMs: options.bumper?.minuteMs ?? 60_000,
          sends: builderSends,
          tip: options.bumper?.tip ?? parseEther("0.0005"),
          tryLock: options.tryLock,
          log,
        })
      : undefined;
  const bumpers = new BumperService(bumperRows, vault, chain, txm, bumperEngine, {
    sells,
    empties,
  });
  const autosellPass = new AutosellPassRepository(db);
  const autosellEngine = chain
    ? new AutosellEngine(
        autosellPass,
        pnlRows,
        new AutosellReader(chain, pnlRows, autosellPass, prices, options.logsMaxBlockRange),
        chain,
        sells,
        (userId, message) => options.emit(userId, "launch_status", message),
        log,
      )
    : undefined;
  const autosell = new AutosellService(
    new AutosellRepository(db),
    bundleRows,
    autosellEngine,
    chain,
  );
  const preflight = new PreflightService({
    chain,
    db,
    vault,
    treasury: { address: options.treasury, hasKey: options.treasuryKey !== undefined },
  });
  return {
    vault,
    preflight,
    transactions: txm,
    walletManager,
    pnl,
    autosell,
    autosellEngine,
    pnlLedger,
    wallets,
    drafts,
    payments,
    plans,
    launches,
    paymentWatcher,
    dispersals,
    disperseEngine,
    bumpers,
    bumperEngine,
    prices,
    referrals,
    payouts,
    keyPayments,
    admin,
    adminActions,
    builderSends,
    builderLandings,
    builderStatuses,
  };
};

export type Services = ReturnType<typeof createServices>;

/**
 * Works every queue here with these services (each module's `<domain>.jobs.ts`): what makes a
 * process a worker. Any number of processes may do this on one database.
 */
export const workServices = async (jobs: JobEngine, services: Services): Promise<void> => {
  if (services.transactions) await workTransactionJobs(jobs, services.transactions);
  if (services.paymentWatcher) await workPaymentJobs(jobs, services.paymentWatcher);
  if (services.disperseEngine) await workDisperseJobs(jobs, services.disperseEngine);
  if (services.bumperEngine) await workBumperJobs(jobs, services.bumperEngine);
  if (services.transactions) await workReferralJobs(jobs, services.payouts);
  if (services.pnlLedger) await workPnlJobs(jobs, services.pnlLedger);
  if (services.autosellEngine) await workAutosellJobs(jobs, services.autosellEngine);
  if (services.builderLandings && services.builderStatuses)
    await workBuilderJobs(jobs, services.builderLandings, services.builderStatuses);
  await workLaunchJobs(jobs, services.launches);
};

/**
 * Money owed back to one of our own wallets: a dispersal's wallet → that dispersal's funder;
 * any other of ours (a payment address, an unfunded dispersal) → held where it is.
 */
const platformRefundRoute =
  (vault: KeyVault, dispersals: DisperseService): RefundRoute =>
  async (senders) => {
    const routes: Awaited<ReturnType<RefundRoute>> = new Map();
    const ours = await vault.platformPurposes(senders);
    for (const [lower, { address, purpose }] of ours) {
      if (purpose === "dispersal") {
        const funder = await dispersals.funderOf(address);
        if (funder && !ours.has(funder.toLowerCase())) {
          routes.set(lower, {
            to: funder as Address,
            note: `it came from our own dispersal wallet ${address}, so it goes to that dispersal's funder`,
          });
          continue;
        }
      }
      routes.set(lower, {
        hold: `it came from our own ${purpose === "payment" ? "payment address" : "dispersal wallet"} ${address}, so it is not sent back there (nothing watches it)`,
      });
    }
    return routes;
  };
