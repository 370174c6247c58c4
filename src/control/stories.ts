// /_sandbox/stories (sandbox.md 5.1): list the scripted stories, play one on a tenant. Thin: the scripts and their
// verbs live in services/stories.ts; this route checks the input, plays, and tells the live stream of each step.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { controlErrors, controlSecurity, errorResponse, json, optionalJsonBody, pathParam } from '../wire/schemas';
import type { Router } from '../wire/env';
import { STORIES, findStory, playStory } from '../services/stories';

const tags = ['Control API'];
const security = controlSecurity;

const StorySchema = z.object({ name: z.string(), title: z.string(), summary: z.string(), steps: z.array(z.string()) }).openapi('Story');
const StoryStepSchema = z
  .object({
    n: z.number().int(),
    title: z.string(),
    did: z.string().openapi({ description: 'What the step did' }),
    at: z.string().openapi({ format: 'date-time', description: 'Sandbox clock when the step ended' }),
    transactionId: z.string().optional(),
  })
  .openapi('StoryStep');
const StoryResultSchema = z
  .object({
    story: z.string(),
    title: z.string(),
    accountId: z.string(),
    steps: z.array(StoryStepSchema),
    ids: z.record(z.string(), z.string()).openapi({ description: 'Ids the story made (charge, refund, withdrawal, block, institution...), for a test suite to follow' }),
  })
  .openapi('StoryResult');
const PlaySchema = z
  .object({
    accountId: z.string().optional().openapi({ description: 'The tenant to play on; default: the first account' }),
    stepDelayMs: z
      .number({ error: 'must be a number of milliseconds from 0 to 5000' })
      .int({ error: 'must be a whole number of milliseconds' })
      .min(0, { error: 'must be from 0 to 5000' })
      .max(5000, { error: 'must be from 0 to 5000' })
      .default(0)
      .openapi({ description: 'Real-time pause between steps so a room can follow them (the console sends 900); 0 for test suites' }),
  })
  .openapi('StoryPlay');

export function registerStories(app: Router, deps: Deps, settle: () => Promise<void>) {
  app.openapi(
    createRoute({ method: 'get', path: '/stories', operationId: 'listStories', tags, security, summary: 'The scripted stories a presenter (or a test suite) can play', responses: { 200: json(z.object({ items: z.array(StorySchema) }).openapi('StoryList'), 'The stories') } }),
    (c) => c.json({ items: STORIES.map(({ name, title, summary, steps }) => ({ name, title, summary, steps })) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/stories/{name}',
      operationId: 'playStory',
      tags,
      security,
      summary: 'Play a story on a tenant, step by step on the sandbox clock; answers what each step did. Each step is all-or-nothing; a step that fails stops the story (the steps before it stay done)',
      request: { params: z.object({ name: pathParam('name', 'A story name from GET /_sandbox/stories', 'paid-charge') }), body: optionalJsonBody(PlaySchema, { accountId: '11111111-1111-4111-8111-111111111111', stepDelayMs: 0 }) },
      responses: { 200: json(StoryResultSchema, 'What the story did'), ...controlErrors, 503: errorResponse('PSP_UNAVAILABLE and co.: a step was refused (the message says which)') },
    }),
    async (c) => {
      const story = findStory(c.req.valid('param').name);
      const body = (c.req.valid('json') as z.infer<typeof PlaySchema> | undefined) ?? { stepDelayMs: 0 };
      const first = Object.values(deps.store.state.accounts)[0];
      const accountId = body.accountId ?? first?.id ?? '';
      deps.store.account(accountId); // a 404 naming the account before any step runs
      const result = await playStory(
        {
          deps,
          get account() {
            return deps.store.account(accountId);
          },
          settle,
          pauseMs: body.stepDelayMs ?? 0,
        },
        story,
        (step, of) => deps.bus.publish({ kind: 'story', accountId, story: story.name, step: step.n, of, title: step.title, did: step.did, at: step.at }),
      );
      return c.json(result, 200);
    },
  );
}
