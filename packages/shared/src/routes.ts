import {
  adminStatsRoute,
  adminUserRoute,
  adminUsersRoute,
  draftPaymentKeyRoute,
  updateUserActiveRoute,
  updateUserRoleRoute,
} from "./api/admin.ts";
import { auditLogRoute } from "./api/admin-audit.ts";
import { adminClaimsRoute, completeClaimRoute, rejectClaimRoute } from "./api/admin-claims.ts";
import { adminPreflightRoute } from "./api/admin-preflight.ts";
import { adminRuntimeRoute, resetAdminRuntimeRoute } from "./api/admin-runtime.ts";
import {
  accountKeysRoute,
  accountRoute,
  cancelKeyPaymentRoute,
  generateFreeKeyRoute,
  keyPaymentStatusRoute,
  startKeyPaymentRoute,
  validateKeyRoute,
} from "./api/auth.ts";
import {
  cancelRuleRoute,
  createRuleRoute,
  dryRunRuleRoute,
  listRulesRoute,
  pauseRuleRoute,
  resumeRuleRoute,
  updateRuleRoute,
} from "./api/autosell.ts";
import { adminBuilderStatsRoute, builderStatsRoute } from "./api/builders.ts";
import {
  bumperCostsRoute,
  bumperWalletsRoute,
  generateBumperRoute,
  getBumperRoute,
  listBumpersRoute,
  startBumperRoute,
  stopBumperRoute,
  withdrawBumperRoute,
} from "./api/bumper.ts";
import {
  bundleBalancesRoute,
  emptyWalletsRoute,
  listBundlesRoute,
  sellDeveloperRoute,
  sellWalletsRoute,
} from "./api/bundles.ts";
import type { RouteDef } from "./api/common.ts";
import { faucetRoute } from "./api/dev.ts";
import {
  cancelDispersalRoute,
  createDispersalRoute,
  dispersalStatusRoute,
} from "./api/disperse.ts";
import { dispersalLogRoute, listDispersalsRoute } from "./api/disperse-history.ts";
import { cancelPaymentRoute, paymentStatusRoute, startPaymentRoute } from "./api/draft-payments.ts";
import {
  createDraftRoute,
  deleteDraftRoute,
  draftLogoRoute,
  executeBundleRoute,
  executeDraftRoute,
  getDraftRoute,
  listDraftsRoute,
  updateDraftRoute,
} from "./api/drafts.ts";
import { draftSummaryRoute, planLaunchRoute } from "./api/launch.ts";
import {
  adminNewsRoute,
  editNewsRoute,
  getConfigRoute,
  getNewsRoute,
  healthRoute,
  newsVisibilityRoute,
  publishNewsRoute,
} from "./api/meta.ts";
import { bundlePnlCsvRoute, bundlePnlHistoryRoute, bundlePnlRoute } from "./api/pnl.ts";
import { bnbPriceRoute } from "./api/price.ts";
import {
  claimReferralRoute,
  createReferralCodeRoute,
  referralClaimsRoute,
  referralInfoRoute,
} from "./api/referral.ts";
import { getAddressRoute, getTransactionRoute, txStatusRoute } from "./api/tx.ts";
import {
  generateAmountsRoute,
  generateWalletsRoute,
  importWalletsRoute,
  walletBalancesRoute,
} from "./api/wallets.ts";

/**
 * Every API route the server answers: method, path, access and the zod contracts of its body,
 * query and path parameters, and which fields name an object the caller must own. The server
 * registers its routes from these definitions, a test checks that it registers exactly these,
 * and the reliability rows ("hostile input", "other users") are generated from this table.
 */
export const ROUTES: readonly RouteDef[] = [
  auditLogRoute,
  adminNewsRoute,
  publishNewsRoute,
  editNewsRoute,
  newsVisibilityRoute,
  adminClaimsRoute,
  completeClaimRoute,
  rejectClaimRoute,
  adminUsersRoute,
  adminUserRoute,
  updateUserRoleRoute,
  updateUserActiveRoute,
  draftPaymentKeyRoute,
  adminStatsRoute,
  adminPreflightRoute,
  adminRuntimeRoute,
  resetAdminRuntimeRoute,
  adminBuilderStatsRoute,
  generateFreeKeyRoute,
  validateKeyRoute,
  startKeyPaymentRoute,
  keyPaymentStatusRoute,
  cancelKeyPaymentRoute,
  accountRoute,
  accountKeysRoute,
  generateBumperRoute,
  listBumpersRoute,
  getBumperRoute,
  startBumperRoute,
  stopBumperRoute,
  withdrawBumperRoute,
  bumperWalletsRoute,
  bumperCostsRoute,
  listBundlesRoute,
  bundleBalancesRoute,
  sellWalletsRoute,
  sellDeveloperRoute,
  emptyWalletsRoute,
  builderStatsRoute,
  bundlePnlRoute,
  bundlePnlHistoryRoute,
  bundlePnlCsvRoute,
  createRuleRoute,
  listRulesRoute,
  dryRunRuleRoute,
  pauseRuleRoute,
  resumeRuleRoute,
  cancelRuleRoute,
  updateRuleRoute,
  faucetRoute,
  createDispersalRoute,
  dispersalStatusRoute,
  cancelDispersalRoute,
  listDispersalsRoute,
  dispersalLogRoute,
  createDraftRoute,
  listDraftsRoute,
  draftLogoRoute,
  getDraftRoute,
  updateDraftRoute,
  deleteDraftRoute,
  startPaymentRoute,
  paymentStatusRoute,
  cancelPaymentRoute,
  executeDraftRoute,
  executeBundleRoute,
  planLaunchRoute,
  draftSummaryRoute,
  getNewsRoute,
  getConfigRoute,
  healthRoute,
  bnbPriceRoute,
  referralInfoRoute,
  createReferralCodeRoute,
  claimReferralRoute,
  referralClaimsRoute,
  txStatusRoute,
  getTransactionRoute,
  getAddressRoute,
  generateWalletsRoute,
  generateAmountsRoute,
  walletBalancesRoute,
  importWalletsRoute,
];
