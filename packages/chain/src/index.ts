export {
  addressOfKey,
  isNativeSigning,
  keyAccount,
  useNativeSigning,
} from "./accounts/keyAccount.ts";
export {
  BUNDLE_STATUS_SERVICES,
  type BundleStatus,
  type BundleStatusBuilder,
  type GetBundleStatusParameters,
  getBundleStatus,
  hasBundleStatus,
} from "./actions/bundleStatus.ts";
export {
  MAX_WINDOW_BLOCKS,
  MIN_WINDOW_BLOCKS,
  measureBlockSeconds,
  windowBlocks,
} from "./actions/bundleWindow.ts";
export {
  type BuyTokenParameters,
  type BuyTokenReturnType,
  buyToken,
  type PrepareBuyReturnType,
  prepareBuy,
} from "./actions/buyToken.ts";
export {
  type CheckLaunchBuildersParameters,
  type CheckLaunchBuildersReturnType,
  checkLaunchBuilders,
  LAUNCH_MIN_TXS,
} from "./actions/checkLaunchBuilders.ts";
export {
  type EmptyWalletParameters,
  type EmptyWalletReturnType,
  emptyWallet,
  type PrepareEmptyReturnType,
  prepareEmpty,
} from "./actions/emptyWallet.ts";
export {
  type GetAddressInfoParameters,
  type GetAddressInfoReturnType,
  getAddressInfo,
} from "./actions/getAddressInfo.ts";
export {
  type GetBalancesParameters,
  type GetBalancesReturnType,
  getBalances,
} from "./actions/getBalances.ts";
export { getBnbPrice, MAX_PRICE_AGE_SECONDS, priceFromRound } from "./actions/getBnbPrice.ts";
export {
  type GetLaunchFeesParameters,
  type GetLaunchFeesReturnType,
  getLaunchFees,
} from "./actions/getLaunchFees.ts";
export {
  type GetSaleOutcomesReturnType,
  getSaleOutcomes,
  type SaleOutcome,
  saleOutcomeOf,
} from "./actions/getSaleOutcomes.ts";
export {
  type GetSellableTokensParameters,
  type GetSellableTokensReturnType,
  getSellableTokens,
} from "./actions/getSellableTokens.ts";
export {
  type GetTaxTokenEarningsReturnType,
  getTaxTokenEarnings,
} from "./actions/getTaxTokenEarnings.ts";
export {
  type GetTokenHoldingsParameters,
  type GetTokenHoldingsReturnType,
  getTokenHoldings,
} from "./actions/getTokenHoldings.ts";
export {
  type GetTokenInfoParameters,
  type GetTokenInfoReturnType,
  getTokenInfo,
} from "./actions/getTokenInfo.ts";
export {
  type GetTokenInfosParameters,
  type GetTokenInfosReturnType,
  getTokenInfos,
} from "./actions/getTokenInfos.ts";
export {
  creatorTypeOf,
  type GetTokenKindParameters,
  type GetTokenKindReturnType,
  getTokenKind,
  isTaxTemplate,
  kindRefusal,
  V1_REFUSAL,
  X_MODE_BIT,
  X_MODE_REFUSAL,
} from "./actions/getTokenKind.ts";
export {
  type GetTxStatusesReturnType,
  getTxStatuses,
  type TxStatus,
} from "./actions/getTxStatuses.ts";
export {
  type LaunchBundleReport,
  type LaunchTokenParameters,
  type LaunchTokenReturnType,
  launchToken,
  type SignedBundle,
} from "./actions/launchToken.ts";
export { type BundlePlan, planBundles, splitBuyers } from "./actions/planBundles.ts";
export {
  type DispersalLeg,
  HOPS_PER_CHAIN,
  type PlanDispersalParameters,
  type PlanDispersalReturnType,
  planDispersal,
  TRANSFER_GAS,
  WALLETS_PER_CHAIN,
} from "./actions/planDispersal.ts";
export {
  type BumpCall,
  type PrepareBumpParameters,
  type PrepareBumpReturnType,
  prepareBump,
} from "./actions/prepareBump.ts";
export {
  type PreparedEmpty,
  type PrepareEmptiesParameters,
  type PrepareEmptiesReturnType,
  prepareEmpties,
} from "./actions/prepareEmpties.ts";
export {
  type PreparedCall,
  type PreparedSell,
  type PrepareSellsParameters,
  type PrepareSellsReturnType,
  prepareSells,
} from "./actions/prepareSells.ts";
export {
  type QuoteBuyParameters,
  type QuoteBuyReturnType,
  quoteBuy,
} from "./actions/quoteBuy.ts";
export {
  type QuoteSellParameters,
  type QuoteSellReturnType,
  quoteSell,
} from "./actions/quoteSell.ts";
export { NotSignedError, recoverSenders } from "./actions/recoverSenders.ts";
export { rpcBatch } from "./actions/rpcBatch.ts";
export { type RpcResponse, rpcFetch, rpcTransport } from "./actions/rpcFetch.ts";
export {
  type PrepareSellReturnType,
  prepareSell,
  type SellTokenParameters,
  type SellTokenReturnType,
  sellToken,
} from "./actions/sellToken.ts";
export {
  type Sign48spBundleParameters,
  type Sign48spBundleReturnType,
  sign48spBundle,
} from "./actions/sign48spBundle.ts";
export { signTransfer } from "./actions/signTransfer.ts";
export {
  type SimulateLaunchParameters,
  type SimulateLaunchReturnType,
  simulateLaunch,
} from "./actions/simulateLaunch.ts";
export {
  type BuilderAnswer,
  type SubmitBundleParameters,
  type SubmitBundleReturnType,
  submitBundle,
} from "./actions/submitBundle.ts";
export {
  netOfSellFee,
  readTradeRoute,
  routeOf,
  type TradeQuote,
  type TradeRoute,
} from "./actions/tradeRoute.ts";
export {
  type TransferParameters,
  type TransferReturnType,
  transfer,
} from "./actions/transfer.ts";
export { waitForBundle } from "./actions/waitForBundle.ts";
export {
  type RefuseCall,
  type SeenCall,
  type SeenRequest,
  startCountingProxy,
} from "./dev/countingProxy.ts";
export {
  type DeployLocalChainParameters,
  type DeployLocalChainReturnType,
  deployLocalChain,
  routerBytecodeFor,
} from "./dev/deployLocalChain.ts";
export { DEV_MNEMONIC, devAccount, devPrivateKey } from "./dev/devAccounts.ts";
export {
  type DevBuilderFaults,
  type StartDevBuilderParameters,
  type StartDevBuilderReturnType,
  startDevBuilder,
} from "./dev/devBuilder.ts";
export { getFreePort } from "./dev/getFreePort.ts";
export {
  anvilBinary,
  type StartAnvilParameters,
  type StartAnvilReturnType,
  startAnvil,
} from "./dev/startAnvil.ts";
export {
  type BundleRefusal,
  BundleRejectedError,
  BundleTimeoutError,
  ChainError,
  describeRevert,
  explainRevert,
  InsufficientFundsError,
  InsufficientTokensError,
  REVERT_MESSAGES,
  RevertError,
  revertReasonOf,
  SimulationRevertError,
  TransactionTimeoutError,
  UnsupportedTokenError,
} from "./errors.ts";
export { createFourMemeClient, fourMemeBaseUrl } from "./fourmeme/createFourMemeClient.ts";
export { createFourMemeLaunchArgs } from "./fourmeme/createFourMemeLaunchArgs.ts";
export { createTokenArgs } from "./fourmeme/createTokenArgs.ts";
export {
  FourMemeAuthExpiredError,
  FourMemeError,
  FourMemeHttpError,
  FourMemeImageRefusedError,
  FourMemeResponseError,
  FourMemeTimeoutError,
} from "./fourmeme/errors.ts";
export { type FakeFourMemeServer, startFakeFourMemeServer } from "./fourmeme/fakeFourMemeServer.ts";
export { getPublicTokenInfo } from "./fourmeme/getPublicTokenInfo.ts";
export { getRaisedToken } from "./fourmeme/getRaisedToken.ts";
export { fourMemeLoginMessage, loginFourMeme } from "./fourmeme/loginFourMeme.ts";
export type {
  FourMemeClient,
  FourMemeCreateArgs,
  FourMemeImage,
  FourMemePublicTokenInfo,
  FourMemeTokenDraft,
  FourMemeTokenTaxInfo,
} from "./fourmeme/types.ts";
export { uploadTokenImage } from "./fourmeme/uploadTokenImage.ts";
export {
  type BuilderEndpoint,
  type BuildersForOptions,
  buildersFor,
  type ChainName,
  type ChainProfile,
  explorerTxUrl,
  FORTY_EIGHT_CLUB_TIERS,
  FORTY_EIGHT_CLUB_UNSIGNED_CAP,
  NODEREAL_TIP_ADDRESS,
  profiles,
  tokenPageUrl,
} from "./profiles.ts";
