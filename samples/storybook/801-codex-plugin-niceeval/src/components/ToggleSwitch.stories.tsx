import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { ToggleSwitch } from './ToggleSwitch';

const meta = {
  title: 'Components/ToggleSwitch',
  component: ToggleSwitch,
  tags: ['autodocs'],
  args: {
    label: 'Enable notifications',
    checked: false,
    onChange: fn(),
  },
  render: function Render(args) {
    const [checked, setChecked] = useState(args.checked);
    return (
      <ToggleSwitch
        {...args}
        checked={checked}
        onChange={(next) => {
          setChecked(next);
          args.onChange(next);
        }}
      />
    );
  },
} satisfies Meta<typeof ToggleSwitch>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Off: Story = {
  play: async ({ canvas, args }) => {
    const toggle = canvas.getByRole('switch', { name: 'Enable notifications' });
    await expect(toggle).not.toBeChecked();

    await userEvent.click(toggle);
    await expect(args.onChange).toHaveBeenCalledWith(true);
    await expect(toggle).toBeChecked();
  },
};

export const On: Story = {
  args: { checked: true },
  play: async ({ canvas, args }) => {
    const toggle = canvas.getByRole('switch', { name: 'Enable notifications' });
    await expect(toggle).toBeChecked();

    await userEvent.click(toggle);
    await expect(args.onChange).toHaveBeenCalledWith(false);
    await expect(toggle).not.toBeChecked();
  },
};

export const ToggledWithKeyboard: Story = {
  name: 'Toggled with keyboard',
  play: async ({ canvas, args }) => {
    const toggle = canvas.getByRole('switch', { name: 'Enable notifications' });

    await userEvent.tab();
    await expect(toggle).toHaveFocus();

    await userEvent.keyboard(' ');
    await expect(args.onChange).toHaveBeenCalledWith(true);
    await expect(toggle).toBeChecked();

    await userEvent.keyboard(' ');
    await expect(args.onChange).toHaveBeenLastCalledWith(false);
    await expect(toggle).not.toBeChecked();
  },
};

export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvas, args }) => {
    const toggle = canvas.getByRole('switch', { name: 'Enable notifications' });
    await expect(toggle).toBeDisabled();

    await userEvent.click(toggle);
    await expect(args.onChange).not.toHaveBeenCalled();
    await expect(toggle).not.toBeChecked();
  },
};

export const DisabledOn: Story = {
  name: 'Disabled while on',
  args: { disabled: true, checked: true },
  play: async ({ canvas }) => {
    const toggle = canvas.getByRole('switch', { name: 'Enable notifications' });
    await expect(toggle).toBeDisabled();
    await expect(toggle).toBeChecked();
  },
};
