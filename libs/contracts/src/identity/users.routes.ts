import { deletedSchema, pageOf, resultOf } from '../common';
import type { ErrorCode } from '../errors';
import { BODY_ERRORS, defineRoute } from '../routes';
import {
  createUserBodySchema,
  listUsersQuerySchema,
  updateUserBodySchema,
  userIdParamsSchema,
  userSchema,
} from './identity.schema';

const read = { service: 'gateway', permission: 'users:read', userOnly: true, tag: 'Team' } as const;
const write = { service: 'gateway', permission: 'users:write', userOnly: true, tag: 'Team' } as const;
const byId: ErrorCode[] = ['RESOURCE.NOT_FOUND'];

/** The partner's portal users (userOnly: an API key gets 403). */
export const userRoutes = [
  defineRoute({
    ...read,
    operationId: 'listUsers',
    method: 'get',
    path: '/portal/users',
    summary: "List the partner's portal users",
    description: 'Oldest first.',
    query: listUsersQuerySchema,
    response: pageOf(userSchema),
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    ...write,
    operationId: 'createUser',
    method: 'post',
    path: '/portal/users',
    summary: 'Invite a user (e-mails a sign-in link)',
    body: createUserBodySchema,
    response: resultOf(userSchema),
    status: 201,
    errors: [...BODY_ERRORS, 'USER.ALREADY_EXISTS'],
  }),
  defineRoute({
    ...read,
    operationId: 'getUser',
    method: 'get',
    path: '/portal/users/{userId}',
    summary: 'Get a user',
    params: userIdParamsSchema,
    response: resultOf(userSchema),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'updateUser',
    method: 'patch',
    path: '/portal/users/{userId}',
    summary: "Change a user's role, name, or deactivate / reactivate them",
    description: "A role change or deactivation ends the user's sessions at once.",
    params: userIdParamsSchema,
    body: updateUserBodySchema,
    response: resultOf(userSchema),
    errors: [...BODY_ERRORS, ...byId, 'USER.LAST_ADMINISTRATOR'],
  }),
  defineRoute({
    ...write,
    operationId: 'deleteUser',
    method: 'delete',
    path: '/portal/users/{userId}',
    summary: 'Remove a user (their sessions end at once)',
    description: 'Answers `{result: {deleted: true}}`, as every delete of the spec does.',
    params: userIdParamsSchema,
    response: resultOf(deletedSchema),
    errors: [...byId, 'USER.LAST_ADMINISTRATOR'],
  }),
  defineRoute({
    ...write,
    operationId: 'reinviteUser',
    method: 'post',
    path: '/portal/users/{userId}/invitations',
    summary: 'E-mail the user a new sign-in link',
    params: userIdParamsSchema,
    response: resultOf(userSchema),
    status: 202,
    errors: [...byId, 'VALIDATION.INVALID'],
  }),
];
