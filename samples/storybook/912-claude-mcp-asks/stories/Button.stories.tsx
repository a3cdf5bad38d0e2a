import type { Meta, StoryObj } from '@storybook/react-vite';

import { Button } from '../src/components/Button';

const CloseIcon = () => (
  <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16">
    <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" />
  </svg>
);

const meta = {
  title: 'Button',
  component: Button,
  tags: ['test'],
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = { args: { children: 'Save changes' } };

export const IconOnly: Story = { args: { icon: <CloseIcon />, iconOnly: true, 'aria-label': 'Close' } };
