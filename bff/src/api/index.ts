import type { RouteSpec } from '../http/route.ts';
import { groupRoutes } from './groups.ts';
import { hookConsoleRoutes, hookRoutes } from './hooks.ts';
import { systemHookConsoleRoutes, systemHookRoutes } from './system-hooks.ts';
import { transferRoutes } from './transfers.ts';
import { scimIdentityRoutes } from './scim-identities.ts';
import { deployTokenRoutes } from './deploy-tokens.ts';
import { feedTokenRoutes } from './feed-tokens.ts';
import { applicationSettingsRoutes } from './application-settings.ts';
import { customAttributeRoutes } from './custom-attributes.ts';
import { groupPushRuleRoutes } from './group-push-rules.ts';
import { projectPushRuleRoutes } from './project-push-rules.ts';
import { groupAccessTokenConsoleRoutes, groupAccessTokenRoutes } from './group-access-tokens.ts';
import { projectRoutes } from './projects.ts';
import { memberRoutes } from './members.ts';
import { invitationRoutes } from './invitations.ts';
import { userRoutes } from './users.ts';
import { personalAccessTokenConsoleRoutes, personalAccessTokenRoutes } from './personal-access-tokens.ts';
import { branchRoutes } from './branches.ts';
import { consoleRoutes as consoleOwnRoutes } from './console.ts';
import { consoleGroupTransferRoutes } from './console-group-transfer.ts';
import { adminJobRoutes } from './admin-jobs.ts';
import { tagRoutes } from './tags.ts';
import { protectedBranchRoutes } from './protected-branches.ts';
import { protectedTagRoutes } from './protected-tags.ts';
import { commitRoutes } from './commits.ts';
import { repositoryFileRoutes } from './repository-files.ts';
import { repositoryTreeRoutes } from './repository-tree.ts';
import { compareRoutes } from './compare.ts';
import { pipelineTriggerRoutes } from './pipeline-triggers.ts';
import { pipelineRoutes } from './pipelines.ts';
import { commitStatusRoutes } from './commit-statuses.ts';
import { eventRoutes } from './events.ts';
import { epicRoutes } from './epics.ts';
import { iterationCadenceRoutes } from './iteration-cadences.ts';
import { projectIterationRoutes } from './project-iterations.ts';
import { groupMilestoneRoutes } from './group-milestones.ts';
import { issueRoutes } from './issues.ts';
import { mergeRequestRoutes } from './merge-requests.ts';
import { noteRoutes } from './notes.ts';
import { mergeSettingsRoutes, mergeTrainRoutes } from './merge-trains.ts';
import { contextCommitRoutes } from './context-commits.ts';
import { mergeRequestMergeRoutes } from './merge-request-merge.ts';
import { mergeRequestApprovalRoutes } from './merge-request-approvals.ts';
import { securityReportRoutes } from './security-reports.ts';
import { vulnerabilityConsoleRoutes, vulnerabilityRoutes } from './vulnerabilities.ts';
import { dependencyRoutes } from './dependencies.ts';
import { securityDashboardRoutes } from './security-dashboard.ts';
import { snippetRoutes } from './snippets.ts';
import { emojiReactionRoutes } from './emoji-reactions.ts';
import { issueLinkRoutes } from './issue-links.ts';
import { vulnerabilityExportRoutes } from './vulnerability-exports.ts';
import { dependencyListExportRoutes } from './dependency-list-exports.ts';
import { exportConsoleRoutes } from './exports.ts';
import { labelRoutes } from './labels.ts';
import { variableRoutes } from './variables.ts';
import { resourceStateEventRoutes } from './resource-state-events.ts';
import { resourceIterationEventRoutes } from './resource-iteration-events.ts';
import { featureConsoleRoutes, featureRoutes } from './features.ts';
import { namespaceRoutes } from './namespaces.ts';
import { groupExportImportRoutes } from './group-export-import.ts';
import { placeholderReassignmentRoutes } from './placeholder-reassignments.ts';
import { errorTrackingRoutes } from './error-tracking.ts';
import { registryProtectionRuleRoutes } from './container-registry-protection.ts';
import { containerRegistryConsoleRoutes, containerRegistryRoutes } from './container-registry.ts';
import { virtualRegistryConsoleRoutes, virtualRegistryRoutes } from './virtual-registries.ts';
import { codeSuggestionRoutes } from './code-suggestions.ts';

/** The route table of /api/v4: data that the app mounts, the OpenAPI document lists and tests compare with the spec. */
export const apiRoutes: RouteSpec[] = [
  ...groupAccessTokenRoutes,
  ...groupRoutes,
  ...groupExportImportRoutes,
  ...placeholderReassignmentRoutes,
  ...groupPushRuleRoutes,
  ...projectPushRuleRoutes,
  ...customAttributeRoutes,
  ...scimIdentityRoutes,
  ...hookRoutes,
  ...systemHookRoutes,
  ...transferRoutes,
  ...deployTokenRoutes,
  ...feedTokenRoutes,
  ...applicationSettingsRoutes,
  ...projectRoutes,
  ...memberRoutes,
  ...invitationRoutes,
  ...userRoutes,
  ...personalAccessTokenRoutes,
  ...branchRoutes,
  ...tagRoutes,
  ...protectedBranchRoutes,
  ...protectedTagRoutes,
  ...commitRoutes,
  ...repositoryFileRoutes,
  ...repositoryTreeRoutes,
  ...compareRoutes,
  ...pipelineTriggerRoutes,
  ...pipelineRoutes,
  ...commitStatusRoutes,
  ...eventRoutes,
  ...epicRoutes,
  ...iterationCadenceRoutes,
  ...projectIterationRoutes,
  ...groupMilestoneRoutes,
  ...issueRoutes,
  ...mergeRequestRoutes,
  ...noteRoutes,
  ...mergeTrainRoutes,
  ...contextCommitRoutes,
  ...mergeRequestMergeRoutes,
  ...mergeRequestApprovalRoutes,
  ...securityReportRoutes,
  ...vulnerabilityRoutes,
  ...dependencyRoutes,
  ...securityDashboardRoutes,
  ...snippetRoutes,
  ...emojiReactionRoutes,
  ...issueLinkRoutes,
  ...vulnerabilityExportRoutes,
  ...dependencyListExportRoutes,
  ...labelRoutes,
  ...variableRoutes,
  ...resourceStateEventRoutes,
  ...resourceIterationEventRoutes,
  ...featureRoutes,
  ...namespaceRoutes,
  ...errorTrackingRoutes,
  ...registryProtectionRuleRoutes,
  ...containerRegistryRoutes,
  ...virtualRegistryRoutes,
  ...codeSuggestionRoutes,
];

/** The console's own endpoints (/api/console): its screens' needs beside the platform API. */
export const consoleRoutes: RouteSpec[] = [
  ...consoleOwnRoutes,
  ...hookConsoleRoutes,
  ...systemHookConsoleRoutes,
  ...personalAccessTokenConsoleRoutes,
  ...groupAccessTokenConsoleRoutes,
  ...mergeSettingsRoutes,
  ...exportConsoleRoutes,
  ...featureConsoleRoutes,
  ...adminJobRoutes,
  ...vulnerabilityConsoleRoutes,
  ...consoleGroupTransferRoutes,
  ...containerRegistryConsoleRoutes,
  ...virtualRegistryConsoleRoutes,
];

/** Every route the server declares: the platform API's and the console's own (see `mount`). */
export const routes: RouteSpec[] = [...apiRoutes, ...consoleRoutes];
