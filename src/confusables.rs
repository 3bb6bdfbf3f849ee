//! The confusable skeleton (UTS #39), shared by the Unicode stage (mixed-script
//! tokens), cross-server shadowing and the typosquat checks: two names with the
//! same skeleton look the same to a human.

/// UTS #39 skeleton, lowercased, so `pаypal` (Cyrillic а) and `paypal` collide.
pub fn skeleton(s: &str) -> String {
    let sk: String = unicode_security::skeleton(s).collect();
    sk.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn homoglyphs_share_a_skeleton() {
        assert_eq!(skeleton("re\u{0430}d_file"), skeleton("read_file"));
        assert_eq!(skeleton("\u{0440}aypal"), skeleton("paypal"));
        assert_ne!(skeleton("read_file"), skeleton("write_file"));
    }
}
