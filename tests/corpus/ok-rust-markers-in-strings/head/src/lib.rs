pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn negates() {
        assert_eq!(add(-1, 1), 0);
    }
}

// #[ignore] is banned
pub const NOTE: &str = "#[ignore] #[allow(dead_code)]";
pub const RAW: &str = r#"#[ignore]"#;
