import { useId } from 'react';
import { Switch } from 'reshaped';

export type ToggleSwitchProps = {
  /** Visible label, also used as the switch's accessible name */
  label: string;
  /** Whether the switch is on (controlled) */
  checked: boolean;
  /** Called with the next checked state when the user toggles the switch */
  onChange: (checked: boolean) => void;
  /** Prevent user interaction */
  disabled?: boolean;
};

export function ToggleSwitch({ label, checked, onChange, disabled = false }: ToggleSwitchProps) {
  const name = useId();

  return (
    <Switch
      name={name}
      checked={checked}
      disabled={disabled}
      onChange={({ checked }) => onChange(checked)}
      inputAttributes={{ role: 'switch' }}
    >
      {label}
    </Switch>
  );
}

export default ToggleSwitch;
