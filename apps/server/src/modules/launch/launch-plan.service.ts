import { type LaunchPlan, type TokenInfo, tipError } from "@bundler/shared";
import { type Address, getAddress, parseEther } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { BadRequestError } from "../../lib/errors.ts";
import type { DraftsService, StoredWalletConfig } from "../drafts/drafts.service.ts";
import { readLaunchCosts } from "./launch-costs.ts";
import { planLaunch } from "./launch-plan.ts";
import { sniperOf } from "./launch-words.ts";

export interface PlanRequest {
  deployerAddress?: string | undefined;
  tipPayerAddress?: string | undefined;
  creatorBuy: string;
  tip: string;
  wallets: Array<{ address: string; buyValue: string }>;
  delaySnipeAddress?: string | undefined;
  /** A tax token: its create is budgeted more gas. */
  taxToken?: boolean | undefined;
}

const PAID = ["paid", "executing", "executed"];

/** What a launch will cost and hold, for the create page and the execute confirmation. */
export class LaunchPlanService {
  constructor(
    private readonly drafts: DraftsService,
    private readonly chain: ChainContext | undefined,
    /** The launch fee a new payment asks, wei. */
    private readonly launchFee: bigint,
  ) {}

  /** The plan of a launch described by the create page (nothing saved). */
  async plan(request: PlanRequest): Promise<LaunchPlan> {
    const sniper = request.delaySnipeAddress ? getAddress(request.delaySnipeAddress) : null;
    const wallets = request.wallets.map((w) => ({
      address: getAddress(w.address),
      buyValue: parseEther(w.buyValue),
    }));
    if (sniper && !wallets.some((w) => w.address === sniper))
      throw new BadRequestError("Address must be one of the imported wallet addresses");
    const costs = await readLaunchCosts(requireChain(this.chain));
    return planLaunch(
      {
        deployer: request.deployerAddress ? getAddress(request.deployerAddress) : null,
        tipPayer: request.tipPayerAddress ? getAddress(request.tipPayerAddress) : null,
        preSale: parseEther(request.creatorBuy),
        tip: parseEther(request.tip),
        wallets,
        sniper,
        launchFee: this.launchFee,
        launchFeePaid: false,
        taxToken: request.taxToken,
      },
      costs,
    );
  }

  /** The plan of the owner's saved draft, as executing it now would run. */
  async summary(ownerId: string, draftId: string): Promise<LaunchPlan> {
    const row = await this.drafts.owned(ownerId, draftId);
    const chain = requireChain(this.chain);
    const info = row.tokenInfo as TokenInfo;
    const config = row.walletConfig as StoredWalletConfig;
    const [payment] = row.paymentId
      ? await this.drafts.repository.paymentsByIds([row.paymentId])
      : [];
    const tip = config.tipEnabled === false || tipError(config.tip) ? "0" : config.tip;
    const costs = await readLaunchCosts(chain);
    return planLaunch(
      {
        deployer: (row.deployerAddress as Address | null) ?? null,
        tipPayer: config.tipPayer ?? null,
        preSale: parseEther(info.preSale || "0"),
        tip: parseEther(tip),
        wallets: config.wallets.map((w) => ({
          address: w.address,
          buyValue: parseEther(w.buyValue || "0"),
        })),
        sniper: sniperOf(config),
        launchFee: payment ? BigInt(payment.amount) : this.launchFee,
        launchFeePaid: PAID.includes(row.status),
        taxToken: Boolean(info.tokenTaxInfo),
      },
      costs,
    );
  }
}
