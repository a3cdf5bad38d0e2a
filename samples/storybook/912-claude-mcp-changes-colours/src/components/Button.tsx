import type { ButtonHTMLAttributes, ReactNode } from 'react';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  icon?: ReactNode;
  iconOnly?: boolean;
};

export function Button({ icon, iconOnly = false, children, style, ...rest }: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      style={{ color: '#767676', background: '#ffffff', border: '1px solid #d0d0d0', borderRadius: 6, ...style }}
    >
      {icon}
      {iconOnly ? null : children}
    </button>
  );
}
