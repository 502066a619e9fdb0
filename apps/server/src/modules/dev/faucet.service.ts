import { randomUUID } from "node:crypto";
import { devAccount, TRANSFER_GAS } from "@bundler/chain";
import { type Address, type Hex, parseEther } from "viem";
import { AppError, BadRequestError, ServiceUnavailableError } from "../../lib/errors.ts";
import type { TxManager } from "../transactions/tx-manager.ts";

/** A faucet transfer the chain did not carry out. */
export class FaucetFailedError extends AppError {
  override readonly name = "FaucetFailedError";
  override readonly statusCode = 502;
}

/**
 * The local profile's faucet: real transfers of test BNB from an anvil development account,
 * sent through the transaction manager (which owns the account's nonces), answered once mined.
 */
export class FaucetService {
  private readonly account = devAccount(1);

  constructor(private readonly txm: TxManager | undefined) {}

  async send(to: Address, amountBnb: string): Promise<Hex> {
    if (!this.txm) throw new ServiceUnavailableError("chain unavailable");
    const key = `faucet:${randomUUID()}`;
    await this.txm.send([
      {
        key,
        purpose: "faucet",
        account: this.account,
        to,
        value: parseEther(amountBnb),
        gas: TRANSFER_GAS,
        reason: "test BNB from the local faucet",
      },
    ]);
    const [sent] = await this.txm.waitFinal([key], { pollMs: 200, timeoutMs: 60_000 });
    // 21,000 gas is a plain transfer: only a contract (or a precompile) at `to` makes it revert.
    if (sent?.status === "reverted")
      throw new BadRequestError("This address does not take a plain BNB transfer (it reverted)");
    if (sent?.status !== "mined")
      throw new FaucetFailedError(
        `The faucet transfer ${sent?.status ?? "was not sent"}${sent?.error ? `: ${sent.error}` : ""}`,
      );
    return sent.txHash as Hex;
  }
}
