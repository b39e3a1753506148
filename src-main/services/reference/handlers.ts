// Handlers of the reference operations (one per entry of referenceOperations).
import type { referenceOperations } from '../../../src-shared/api/reference';
import type { HandlerMap } from '../common/handler';
import { archiveAsset, createAsset, getAsset, listAssets, updateAsset } from './assetsService';
import { createChannel, getChannel, listChannels, setChannelsActive, updateChannel } from './channelsService';
import { associateAssetsWithRun, createAdhocRun, createRun, deleteRun, getRun, listRuns, stopRun, updateRun } from './runsService';
import { createTag, listTags } from './tagsService';
import { createUnit, listUnits } from './unitsService';
import { getMe, getUser, listActiveUsers, listUsers } from './usersService';

export const referenceHandlers: HandlerMap<typeof referenceOperations> = {
  GetAsset: (ctx, req) => getAsset(ctx, req.assetId),
  ListAssets: (ctx, req) => listAssets(ctx, req),
  CreateAsset: (ctx, req) => createAsset(ctx, req),
  UpdateAsset: (ctx, req) => updateAsset(ctx, req.asset, req.updateMask),
  ArchiveAsset: (ctx, req) => archiveAsset(ctx, req.assetId, req.archiveRuns ?? false),
  // Delete is deprecated and archives (reference §11.1).
  DeleteAsset: (ctx, req) => (archiveAsset(ctx, req.assetId, req.archiveRuns ?? false), {}),

  GetRun: (ctx, req) => getRun(ctx, req.runId),
  ListRuns: (ctx, req) => listRuns(ctx, req),
  CreateRun: (ctx, req) => createRun(ctx, req),
  CreateAdhocRun: (ctx, req) => createAdhocRun(ctx, req),
  UpdateRun: (ctx, req) => updateRun(ctx, req.run, req.updateMask),
  StopRun: (ctx, req) => stopRun(ctx, req.runId),
  DeleteRun: (ctx, req) => deleteRun(ctx, req.runId),
  CreateAutomaticRunAssociationForAssets: (ctx, req) => associateAssetsWithRun(ctx, req.runId, req.assetNames),

  CreateTag: (ctx, req) => createTag(ctx, req),
  ListTags: (ctx, req) => listTags(ctx, req),

  GetUser: (ctx, req) => getUser(ctx, req.userId),
  ListActiveUsers: (ctx, req) => listActiveUsers(ctx, req),
  ListUsers: (ctx, req) => listUsers(ctx, req),
  GetMe: (ctx) => getMe(ctx),

  GetChannel: (ctx, req) => getChannel(ctx, req.channelId),
  ListChannels: (ctx, req) => listChannels(ctx, req),
  CreateChannel: (ctx, req) => createChannel(ctx, req),
  UpdateChannel: (ctx, req) => updateChannel(ctx, req.channel, req.updateMask),
  BatchArchiveChannels: (ctx, req) => setChannelsActive(ctx, req.channelIds, false),
  BatchUnarchiveChannels: (ctx, req) => setChannelsActive(ctx, req.channelIds, true),

  ListUnits: (ctx, req) => listUnits(ctx, req),
  CreateUnit: (ctx, req) => createUnit(ctx, req),
};
