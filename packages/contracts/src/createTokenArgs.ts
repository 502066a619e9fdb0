import {
  type Address,
  encodeAbiParameters,
  type Hex,
  keccak256,
  type LocalAccount,
  parseAbiParameters,
} from "viem";

export interface CreateTokenArgs {
  name: string;
  symbol: string;
  /** Unix seconds; trading opens once block.timestamp reaches it (0: at once). */
  launchTime: bigint;
  /** Each request id can create one token, ever. */
  requestId: bigint;
  /** BNB the creator spends on the first buy, fee included (0n: none). */
  preSale: bigint;
  /** Who must send the createToken transaction. */
  creator: Address;
}

const argsParameters = parseAbiParameters(
  "string name, string symbol, uint256 launchTime, uint256 requestId, uint256 preSale, address creator",
);

/**
 * The `args` bytes of `createToken(bytes args, bytes signature)`.
 *
 * @example
 * const args = encodeCreateTokenArgs({ name: "Moon", symbol: "MOON", launchTime: 0n, requestId: 1n, preSale: 0n, creator });
 */
export const encodeCreateTokenArgs = (args: CreateTokenArgs): Hex =>
  encodeAbiParameters(argsParameters, [
    args.name,
    args.symbol,
    args.launchTime,
    args.requestId,
    args.preSale,
    args.creator,
  ]);

/**
 * What the launch signer signs (EIP-191 personal sign over these 32 bytes): binds the args
 * to one chain and one launchpad.
 *
 * @example
 * const hash = createTokenArgsHash({ chainId: 31337, launchpad, args });
 */
export const createTokenArgsHash = (params: {
  chainId: number;
  launchpad: Address;
  args: Hex;
}): Hex =>
  keccak256(
    encodeAbiParameters(parseAbiParameters("uint256, address, bytes32"), [
      BigInt(params.chainId),
      params.launchpad,
      keccak256(params.args),
    ]),
  );

/**
 * The launch signer's `signature` for `createToken`, the part four.meme's API plays on mainnet.
 *
 * @example
 * const signature = await signCreateTokenArgs({ signer: privateKeyToAccount(key), chainId, launchpad, args });
 */
export const signCreateTokenArgs = (params: {
  signer: LocalAccount;
  chainId: number;
  launchpad: Address;
  args: Hex;
}): Promise<Hex> => params.signer.signMessage({ message: { raw: createTokenArgsHash(params) } });
