import { expect, test } from 'vitest';
import {
  expectStoryTestsRanAndPassed, expectWorkflowCalls, expectDisplayReviewForVisualChange,
  expectSkillInvoked, expectDevServerLeftRunning, getEvalContext,
} from '#test-utils';

const { integration } = getEvalContext();

test('story tests ran and passed', () => expectStoryTestsRanAndPassed({ covering: ['toggleswitch'] }));
test('calls the story instructions and review-create', () =>
  expectWorkflowCalls(['get-storybook-story-instructions', 'review-create']));
test('publishes a visual-change review', () => expectDisplayReviewForVisualChange());
test.skipIf(integration === 'mcp')('invokes the stories skill', () => expectSkillInvoked('stories'));
test.skipIf(integration !== 'plugin')('leaves the dev server running', () => expectDevServerLeftRunning());
