export { DEAD_ADDRESS, MULTICALL3_ADDRESS } from "./addresses.ts";
export {
  type CreateTokenArgs,
  createTokenArgsHash,
  encodeCreateTokenArgs,
  signCreateTokenArgs,
} from "./createTokenArgs.ts";
export {
  type BuyQuote,
  CURVE_SUPPLY,
  CurveRevertError,
  type CurveState,
  createTokenValue,
  DEFAULT_LAUNCH_FEE,
  DEFAULT_MAX_FUNDS,
  DEFAULT_MIN_TRADING_FEE,
  DEFAULT_TRADING_FEE_RATE,
  FEE_DENOMINATOR,
  GWEI_UNIT,
  LIQUIDITY_SUPPLY,
  newCurve,
  preSaleFee,
  priceAt,
  quoteBuyAmount,
  quoteBuyWithFunds,
  quoteSell,
  raisedAt,
  type SellQuote,
  soldAt,
  TOTAL_SUPPLY,
  tradingFee,
  VIRTUAL_SUPPLY,
} from "./curve.ts";
export {
  LaunchpadHelperArtifact,
  LaunchpadManagerArtifact,
  LaunchTokenArtifact,
  Multicall3Artifact,
  RejectsBnbArtifact,
} from "./generated/artifacts.ts";
export {
  type BuildArtifact,
  UniswapV2FactoryArtifact,
  UniswapV2PairArtifact,
  UniswapV2Router02Artifact,
  WETH9Artifact,
} from "./uniswap.ts";
