import { type Address, createWalletClient, type Hex, http, pad, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { TestChain } from "./chain.ts";

/**
 * A contract that sends the value of each call on to the address in its calldata (one `CALL`
 * with all the gas, reverting when it fails): a payment made this way reaches the payment
 * address by a contract's internal call, never as a plain transfer in a block's transactions.
 *
 * Runtime: CALL(gas, calldataload(0), callvalue, 0, 0, 0, 0); revert unless it succeeded.
 * Creation: copy the 24 runtime bytes that follow the 11 creation bytes and return them.
 */
const RUNTIME = "6000600060006000346000355af115601357005b600080fd";
const CREATION = "0x601880600b6000396000f3";
export const FORWARDER_BYTECODE = `${CREATION}${RUNTIME}` as Hex;

/** Deploys a forwarder on the test chain and answers a payer that pays through it. */
export const forwarderOn = async (testChain: TestChain) => {
  const account = privateKeyToAccount(generatePrivateKey());
  await testChain.rpc("anvil_setBalance", [account.address, `0x${parseEther("10").toString(16)}`]);
  const wallet = createWalletClient({ account, transport: http(testChain.local.rpcUrl) });
  const deployed = await testChain.chain.client.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: [], bytecode: FORWARDER_BYTECODE, chain: null }),
    pollingInterval: 200,
  });
  const forwarder = deployed.contractAddress;
  if (!forwarder) throw new Error("the forwarder was not deployed");
  const code = await testChain.chain.client.getCode({ address: forwarder });
  if (code !== `0x${RUNTIME}`) throw new Error(`the forwarder's code is ${code}`);
  return forwarder;
};

/**
 * A funded outside wallet that pays through `forwarder` (the value arrives by the contract's
 * internal call) and answers the gas its own transaction spent.
 */
export const contractPayerOn = async (testChain: TestChain, forwarder: Address) => {
  const account = privateKeyToAccount(generatePrivateKey());
  await testChain.rpc("anvil_setBalance", [account.address, `0x${parseEther("10").toString(16)}`]);
  const wallet = createWalletClient({ account, transport: http(testChain.local.rpcUrl) });
  const pay = async (to: Address, value: bigint) => {
    const hash = await wallet.sendTransaction({
      chain: null,
      to: forwarder,
      data: pad(to, { size: 32 }),
      value,
    });
    const receipt = await testChain.chain.client.waitForTransactionReceipt({
      hash,
      pollingInterval: 200,
    });
    if (receipt.status !== "success") throw new Error("the forwarded payment reverted");
    return {
      gas: receipt.gasUsed * receipt.effectiveGasPrice,
      blockNumber: receipt.blockNumber,
      hash,
    };
  };
  return { account, pay };
};
