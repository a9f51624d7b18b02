package rawjson

import (
	"bytes"
	"encoding/json"
)

// objectField finds key (exactly) among the members of obj, a JSON object
// encoding/json has already checked, and returns its value's text. Of
// duplicate keys the last wins, as encoding/json's own decoding does.
func objectField(obj json.RawMessage, key string) (json.RawMessage, bool) {
	var val json.RawMessage
	found := false
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipWS(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return val, found // '}' or the end
		}
		kEnd := skipString(obj, i)
		k := obj[i:kEnd]
		i = skipWS(obj, kEnd)
		i++ // ':'
		i = skipWS(obj, i)
		vEnd := skipValue(obj, i)
		if keyIs(k, key) {
			val, found = obj[i:vEnd], true
		}
		i = skipWS(obj, vEnd)
		if i < len(obj) && obj[i] == ',' {
			i++
		}
	}
}

// keyIs reports whether the quoted key k is key.
func keyIs(k []byte, key string) bool {
	if bytes.IndexByte(k, '\\') < 0 {
		return string(k[1:len(k)-1]) == key
	}
	var s string
	return json.Unmarshal(k, &s) == nil && s == key
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	return i
}
