import { devAccount } from "@bundler/chain";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
} from "viem";

/**
 * The local profile's faucet: real transfers of test BNB from an anvil development
 * account, one at a time so nonces never collide.
 */
export class FaucetService {
  private readonly account = devAccount(1);
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly rpcUrl: string) {}

  send(to: Address, amountBnb: string): Promise<Hex> {
    const run = this.queue.then(() => this.transfer(to, parseEther(amountBnb)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async transfer(to: Address, value: bigint): Promise<Hex> {
    const transport = http(this.rpcUrl);
    const client = createPublicClient({ transport, cacheTime: 0 });
    const wallet = createWalletClient({ account: this.account, transport });
    const hash = await wallet.sendTransaction({
      chain: null,
      to,
      value,
      type: "legacy",
      gasPrice: await client.getGasPrice(),
      nonce: await client.getTransactionCount({
        address: this.account.address,
        blockTag: "pending",
      }),
    });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    return hash;
  }
}
