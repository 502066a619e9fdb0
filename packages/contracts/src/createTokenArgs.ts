import {
  type Address,
  encodeAbiParameters,
  type Hex,
  keccak256,
  type LocalAccount,
  parseAbiParameters,
  zeroAddress,
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
  /** Makes a type-5 tax token (TaxToken.sol) instead of a plain one. */
  tax?: TaxTokenConfig;
}

/**
 * A tax token's on-chain config, TaxToken.Config: what four.meme's API turns `tokenTaxInfo`
 * into (create guide §3.4): `feeRate` in basis points (API 5 → 500), the rates in percent
 * summing to 100 (`divideRate` is `rateHolder`, `recipientRate` `rateFounder`), `founder` the
 * recipient (zero address when its rate is 0), `minShare` the dividend minimum in token wei.
 */
export interface TaxTokenConfig {
  feeRate: bigint;
  rateFounder: bigint;
  rateHolder: bigint;
  rateBurn: bigint;
  rateLiquidity: bigint;
  founder: Address;
  minShare: bigint;
}

const argsParameters = parseAbiParameters(
  "string name, string symbol, uint256 launchTime, uint256 requestId, uint256 preSale, address creator",
);
const taxArgsParameters = parseAbiParameters([
  "string name, string symbol, uint256 launchTime, uint256 requestId, uint256 preSale, address creator, TaxConfig tax",
  "struct TaxConfig { uint256 feeRate; uint256 rateFounder; uint256 rateHolder; uint256 rateBurn; uint256 rateLiquidity; address founder; uint256 minShare; }",
]);

/**
 * The `args` bytes of `createToken(bytes args, bytes signature)`; a tax token's carry its
 * config after `creator`.
 *
 * @example
 * const args = encodeCreateTokenArgs({ name: "Moon", symbol: "MOON", launchTime: 0n, requestId: 1n, preSale: 0n, creator });
 */
export const encodeCreateTokenArgs = (args: CreateTokenArgs): Hex =>
  args.tax
    ? encodeAbiParameters(taxArgsParameters, [
        args.name,
        args.symbol,
        args.launchTime,
        args.requestId,
        args.preSale,
        args.creator,
        args.tax,
      ])
    : encodeAbiParameters(argsParameters, [
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

/** `tokenTaxInfo` as four.meme's create API takes it (create guide §3.4): percents, ether units. */
export interface TokenTaxInfo {
  feeRate: number;
  burnRate: number;
  divideRate: number;
  liquidityRate: number;
  recipientRate: number;
  recipientAddress: string;
  minSharing: number;
}

/**
 * What four.meme's backend puts in `createArg` for a `tokenTaxInfo` (create guide §3.4: API
 * `feeRate` 5 → on-chain 500 basis points; tax guide §2.2: `divideRate` is `rateHolder`;
 * `minSharing` is in ether units, `minShare` in wei). The local launch signer uses it.
 *
 * @example
 * taxTokenConfigOf({ feeRate: 5, burnRate: 0, divideRate: 50, liquidityRate: 0, recipientRate: 50, recipientAddress, minSharing: 100000 });
 */
export const taxTokenConfigOf = (info: TokenTaxInfo): TaxTokenConfig => ({
  feeRate: BigInt(info.feeRate) * 100n,
  rateFounder: BigInt(info.recipientRate),
  rateHolder: BigInt(info.divideRate),
  rateBurn: BigInt(info.burnRate),
  rateLiquidity: BigInt(info.liquidityRate),
  founder:
    info.recipientRate > 0 && info.recipientAddress
      ? (info.recipientAddress as Address)
      : zeroAddress,
  minShare: BigInt(info.minSharing) * 10n ** 18n,
});
